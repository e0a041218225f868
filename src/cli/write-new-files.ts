import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Writes files core planned (by project path) under root, each only if it does not exist yet (flag
 * 'wx'), and returns their absolute paths. On a failure the ones already written are removed before
 * the error goes on, so the project is left as it was.
 */
export function writeNewFiles(root: string, files: Record<string, string | Uint8Array>): string[] {
  const written: string[] = [];
  try {
    for (const [path, content] of Object.entries(files)) {
      const file = join(root, path);
      writeFileSync(file, content, { flag: 'wx' });
      written.push(file);
    }
  } catch (error) {
    for (const file of written) rmSync(file, { force: true });
    throw error;
  }
  return written;
}
