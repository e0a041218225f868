import { open } from 'node:fs/promises';

/** fsyncs a file or a folder (a folder: so a rename in it survives a power cut). */
export async function fsyncPath(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
