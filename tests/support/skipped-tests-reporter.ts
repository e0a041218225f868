import { relative } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

/**
 * One line at the end of a unit run naming every test that ran in no project
 * (a test the SQLite run skips because the PostgreSQL run covers it is not
 * skipped), and why: where PostgreSQL does not answer, what needs it.
 * `postgresAbsent` is that run's reason ("PostgreSQL does not answer at …"),
 * which .ci/run looks for.
 */
export function skippedTestsReporter(postgresAbsent: string | null): Reporter {
  return {
    onTestRunEnd(testModules: ReadonlyArray<TestModule>) {
      // file → test name → whether any project ran it
      const ran = new Map<string, Map<string, boolean>>();
      for (const module of testModules) {
        const file = relative(process.cwd(), module.moduleId);
        const tests = ran.get(file) ?? new Map<string, boolean>();
        ran.set(file, tests);
        for (const test of module.children.allTests()) {
          tests.set(test.fullName, (tests.get(test.fullName) ?? false) || test.result().state !== 'skipped');
        }
      }
      const wholeFiles: string[] = [];
      const someTests: string[] = [];
      let count = 0;
      for (const [file, tests] of ran) {
        const skipped = [...tests].filter(([, didRun]) => !didRun).map(([name]) => name);
        count += skipped.length;
        if (skipped.length === 0) continue;
        if (skipped.length === tests.size) wholeFiles.push(`${file} (${plural(skipped.length)})`);
        else someTests.push(`${file}: ${skipped.map((name) => `"${name}"`).join(', ')}`);
      }
      if (count === 0 && !postgresAbsent) return;
      const listed = count === 0 ? 'no test skipped' : `skipped ${plural(count)}: ${[...wholeFiles, ...someTests].join('; ')}`;
      console.warn(postgresAbsent ? `${postgresAbsent}: the server tests ran on SQLite only; ${listed}.` : `Unit tests: ${listed}.`);
    },
  };
}

const plural = (n: number) => `${n} test${n === 1 ? '' : 's'}`;
