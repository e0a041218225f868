import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from './config-error';

/**
 * Adds the settings of `.env` in the working directory (the project folder,
 * for npm scripts) to process.env, so the server and the staff commands
 * (npm run requests) read one configuration. A variable the environment sets
 * keeps its value: a deployment's own settings win over the file.
 */
export function loadEnvFile(cwd = process.cwd()): void {
  const file = join(cwd, '.env');
  if (!existsSync(file)) return;
  try {
    process.loadEnvFile(file);
  } catch (error) {
    throw new ConfigError(`cannot read ${file}: ${(error as Error).message}`);
  }
}
