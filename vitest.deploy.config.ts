import { defineConfig } from 'vitest/config';

/**
 * The deployment tests (tests/deploy/*.spec.ts): the image tests/deploy/run.ts built, run by podman on
 * the host network, behind Debian's nginx, on the host's PostgreSQL. One file at a time: they share
 * the machine's two cores with the containers they start.
 */
export default defineConfig({
  test: {
    include: ['tests/deploy/**/*.spec.ts'],
    environment: 'node',
    testTimeout: 120_000,
    hookTimeout: 180_000,
    fileParallelism: false,
  },
});
