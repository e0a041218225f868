import { createConnection } from 'node:net';
import { defineConfig, mergeConfig } from 'vitest/config';
import { portalBuildOf, portalViteConfig } from './vite.config.ts';
import { SPEC_DATA_ENV } from './tests/support/data-folders.ts';
import { noShippedDataImports } from './tests/support/no-shipped-data.ts';
import { skippedTestsReporter } from './tests/support/skipped-tests-reporter.ts';
import { failedTestsReporter } from './tests/support/failed-tests-reporter.ts';

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

/** What runs on each backend: the server's tests and the staff commands'. */
const BACKEND_TESTS = ['tests/server/**/*.test.ts', 'tests/cli/requests/**/*.test.ts'];

/**
 * Unit, component and server tests; the server tests run a second time on
 * PostgreSQL (the backend matrix). Where PostgreSQL is absent, what needs it
 * is left out, and the run ends with one line naming every test it skipped
 * (tests/support/skipped-tests-reporter.ts), unless REQUIRE_POSTGRES is set (CI sets it).
 */
export default defineConfig(async () => {
  const postgres = await postgresAnswers();
  const absent = `PostgreSQL does not answer at ${where}`;
  if (!postgres && process.env.REQUIRE_POSTGRES) throw new Error(`REQUIRE_POSTGRES is set, but ${absent}`);
  // What the tests' servers and commands read, in process or spawned, unless a test says otherwise: the spec's data.
  const env = { TEST_POSTGRES_AVAILABLE: postgres ? '1' : '', ...SPEC_DATA_ENV };
  // The page's brand files (import.meta.glob in src/web/app/brands.ts), forms, languages and countries
  // (src/cli/vite/portal-data-modules.ts) are the spec's, never the shipped ones.
  const pageConfig = portalViteConfig(portalBuildOf(SPEC_DATA_ENV));
  return mergeConfig(pageConfig, {
    plugins: [noShippedDataImports()],
    test: {
      reporters: ['default', skippedTestsReporter(postgres ? null : absent), failedTestsReporter()],
      setupFiles: ['tests/support/no-shipped-data.setup.ts'],
      // Hooks start and dispose servers and make and drop databases: at a load of 26 on 2 cores, dropping
      // a file's six PostgreSQL databases took past the default 10 s (migrate-to-postgres.test.ts).
      hookTimeout: 60_000,
      // A test is broken, not busy, when it takes this long: Vitest's 5 s failed pure functions at a load of 16 on
      // 2 cores (mailbox.test.ts). Tests that run servers or browsers set their own, longer, limits.
      testTimeout: 30_000,
      // Each project names its own files (a file list in the shared options would be added to each project's).
      environment: 'node',
      projects: [
        { extends: true, test: { name: 'sqlite', include: ['tests/**/*.test.{ts,tsx}'], env } },
        ...(postgres
          ? [{ extends: true, test: { name: 'postgres', include: BACKEND_TESTS, env: { ...env, TEST_BACKEND: 'postgres' } } }]
          : []),
      ],
    },
  });
});
