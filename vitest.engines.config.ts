import { defineConfig } from 'vitest/config';
import { ENGINE_NAMES } from './tests/engines/support/driver.ts';
import { noShippedDataImports } from './tests/support/no-shipped-data.ts';
import { failedTestsReporter } from './tests/support/failed-tests-reporter.ts';

/**
 * The core customer journeys (tests/engines/*.spec.ts) in every engine:
 * Chromium (playwright-core), Firefox ESR (puppeteer-core over WebDriver
 * BiDi), WebKitGTK (webdriverio over WebDriver, on its own Xvfb display).
 * One project per engine runs each file once; a file starts one portal and
 * one browser. `--project webkit` runs one engine. The full browser suite
 * (vitest.e2e.config.ts) stays in Chromium.
 */
export default defineConfig({
  plugins: [noShippedDataImports()],
  test: {
    environment: 'node',
    // A build of the spec's brands, as the browser suite tests.
    globalSetup: ['tests/e2e/support/global-setup.ts'],
    setupFiles: ['tests/support/no-shipped-data.setup.ts'],
    testTimeout: 60_000,
    // A stock browser's WebDriver session can stall once in a long run (seen once in 162 WebKit
    // journeys, before the file chooser was kept shut); a journey that fails twice is a failure.
    retry: 1,
    hookTimeout: 120_000,
    maxWorkers: 2,
    fileParallelism: true,
    reporters: ['default', failedTestsReporter()],
    projects: ENGINE_NAMES.map((engine) => ({
      extends: true,
      test: { name: engine, include: ['tests/engines/**/*.spec.ts'], provide: { engine } },
    })),
  },
});
