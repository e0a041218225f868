import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app';
import { loadConfig, type ServerConfig } from './config';
import { ConfigError } from './config-error';
import { loadEnvFile } from './env-file';
import { isStoreUnavailable } from './storage/store-unavailable';
import { exitOnSignals } from './shutdown';

/** Builds the app, listens, and exits cleanly on SIGTERM/SIGINT. */
export async function startServer(config: ServerConfig): Promise<FastifyInstance> {
  const app = await buildApp(config, { logger: { level: config.logLevel } });
  exitOnSignals(app, config.shutdownDeadlineMs);
  await app.listen({ port: config.port, host: config.host });
  return app;
}

/**
 * Entry point: reads the environment and `.env`; configuration errors are
 * reported by name, without a stack trace. `prepare` runs with the parsed
 * config before the app is built.
 */
export async function main(prepare: (config: ServerConfig) => void = () => {}): Promise<void> {
  try {
    loadEnvFile();
    const config = loadConfig();
    prepare(config);
    await startServer(config);
  } catch (error) {
    if (error instanceof ConfigError) console.error(`Configuration error: ${error.message}`);
    // A database that does not answer or refuses the login (a wrong DATABASE_URL): one line, no stack.
    else if (isStoreUnavailable(error)) console.error(`Cannot start: ${(error as Error).message}`);
    else console.error(error);
    process.exit(1);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
