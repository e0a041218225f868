import { appendFileSync } from 'node:fs';
import { relative } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

/**
 * Where `npm test` asks for it (TEST_FAILURES_FILE, set by src/cli/run-tests.mjs), one line per failed
 * test, hook or file, with the first line of its error: the run's table repeats them at the very end, where
 * a CI log cut to its last lines still shows which test of an earlier step failed. A describe block's
 * beforeAll or afterAll fails its suite, not a test (the tests stay passed or skipped): it is named too,
 * and a file that failed with nothing named says so rather than leave the step's failure unexplained.
 */
export function failedTestsReporter(): Reporter {
  return {
    onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors) {
      const file = process.env.TEST_FAILURES_FILE;
      if (!file) return;
      const lines: string[] = [];
      const firstLine = (message: string | undefined) => (message ?? '').split('\n')[0].slice(0, 300);
      for (const module of testModules) {
        const path = relative(process.cwd(), module.moduleId);
        const project = module.project.name ? ` [${module.project.name}]` : '';
        const before = lines.length;
        for (const error of module.errors()) lines.push(`${path}${project}: ${firstLine(error.message)}`);
        for (const suite of module.children.allSuites()) {
          for (const error of suite.errors()) lines.push(`${path}${project} > ${suite.fullName} (a hook of the block): ${firstLine(error.message)}`);
        }
        for (const test of module.children.allTests('failed')) {
          lines.push(`${path}${project} > ${test.fullName}: ${firstLine(test.result().errors?.[0]?.message)}`);
        }
        if (lines.length === before && module.state() === 'failed') lines.push(`${path}${project}: failed, with no test, hook or error named`);
      }
      for (const error of unhandledErrors) lines.push(`unhandled error: ${firstLine((error as { message?: string }).message)}`);
      if (lines.length > 0) appendFileSync(file, lines.map((line) => `${line}\n`).join(''));
    },
  };
}
