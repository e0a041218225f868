import { defineConfig } from 'vitest/config';
import { noShippedDataImports } from './tests/support/no-shipped-data.ts';
import { failedTestsReporter } from './tests/support/failed-tests-reporter.ts';

/**
 * Browser suites (tests/e2e/*.spec.ts): real Chromium against the real
 * intake server. Each file starts its own server and browser; two files run
 * at a time (this machine has 2 cores), tests inside a file run in order.
 * They test a build of the spec's brands (global-setup.ts); shipped-brands.spec.ts
 * alone serves the build of brands/ (shipped-build.ts).
 */
export default defineConfig({
  plugins: [noShippedDataImports()],
  test: {
    include: ['tests/e2e/**/*.spec.ts'],
    environment: 'node',
    globalSetup: ['tests/e2e/support/global-setup.ts', 'tests/e2e/support/shipped-build.ts'],
    setupFiles: ['tests/support/no-shipped-data.setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    maxWorkers: 2,
    fileParallelism: true,
    reporters: ['default', failedTestsReporter()],
  },
});
