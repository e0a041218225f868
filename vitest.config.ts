import { createConnection } from 'node:net';
import { defineConfig, mergeConfig } from 'vitest/config';
import viteConfig from './vite.config.ts';

/** Whether PostgreSQL answers on the machines' usual address (tests/support/backend.ts). */
const { hostname, port } = new URL(process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test');
const where = `${hostname}:${port || 5432}`;

function postgresAnswers(): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: hostname, port: Number(port || 5432), timeout: 2000 });
    const answer = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.once('connect', () => answer(true)).once('error', () => answer(false)).once('timeout', () => answer(false));
  });
}

/**
 * Unit, component and server tests; the server tests run a second time on
 * PostgreSQL (the backend matrix). Where PostgreSQL is absent, that half is
 * left out with a notice, unless REQUIRE_POSTGRES is set (CI sets it).
 */
export default defineConfig(async () => {
  const postgres = await postgresAnswers();
  if (!postgres) {
    if (process.env.REQUIRE_POSTGRES) throw new Error(`REQUIRE_POSTGRES is set, but PostgreSQL does not answer at ${where}`);
    console.warn(`PostgreSQL does not answer at ${where}: the server tests run on SQLite only.`);
  }
  return mergeConfig(viteConfig, {
    test: {
      // Each project names its own files (a file list in the shared options would be added to each project's).
      environment: 'node',
      projects: [
        { extends: true, test: { name: 'sqlite', include: ['tests/**/*.test.{ts,tsx}'] } },
        ...(postgres
          ? [{ extends: true, test: { name: 'postgres', include: ['tests/server/**/*.test.ts'], env: { TEST_BACKEND: 'postgres' } } }]
          : []),
      ],
    },
  });
});
