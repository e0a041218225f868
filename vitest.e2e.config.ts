import { defineConfig } from 'vitest/config';

/**
 * Browser suites (tests/e2e/*.spec.ts): real Chromium against the real
 * intake server. Each file starts its own server and browser; two files run
 * at a time (this machine has 2 cores), tests inside a file run in order.
 */
export default defineConfig({
  test: {
    include: ['tests/e2e/**/*.spec.ts'],
    environment: 'node',
    globalSetup: ['tests/e2e/support/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    maxWorkers: 2,
    fileParallelism: true,
    reporters: ['default'],
  },
});
