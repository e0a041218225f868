/**
 * `npm test`'s closing lines are what a CI log cut to its tail still shows: a step that failed must be
 * explained there, by its failed tests when its reporter named them, else by the step's own last lines
 * (a crash, a global setup, a rejection in the runner's main process).
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** npm test with an `npm` first on PATH that runs `script` as each step's command ($2: the script's name). */
function npmTestWith(script: string) {
  const bin = mkdtempSync(join(tmpdir(), 'npm-test-bin-'));
  dirs.push(bin);
  writeFileSync(join(bin, 'npm'), `#!/bin/sh\n${script}\n`);
  chmodSync(join(bin, 'npm'), 0o755);
  const run = spawnSync(process.execPath, ['src/cli/run-tests.mjs'], { encoding: 'utf8', env: { ...process.env, PATH: `${bin}:${process.env.PATH}` } });
  // What follows the table: the closing lines.
  return { status: run.status, tail: run.stdout.slice(run.stdout.lastIndexOf('\nstep ')) };
}

describe('npm test ends with what failed', () => {
  it('a step that named no test: its last lines, after the table', () => {
    const run = npmTestWith(`[ "$2" = test:e2e ] || exit 0\nfor i in $(seq 1 60); do echo "line $i"; done\necho "Unhandled Rejection: the socket closed" >&2\nexit 1`);
    expect(run.status).toBe(1);
    expect(run.tail).toContain('test:e2e failed with no test named; its last lines:');
    expect(run.tail).toContain('line 60\nUnhandled Rejection: the socket closed');
    expect(run.tail).not.toContain('line 30\n');
    expect(run.tail.trimEnd()).toMatch(/npm test: failed: test:e2e; \d+ s$/);
  });

  it('a step whose reporter named its failed test: that test, and no lines of the step', () => {
    const run = npmTestWith(`[ "$2" = test:unit ] || exit 0\necho "tests/a.test.ts > adds: expected 3 to be 4" >> "$TEST_FAILURES_FILE"\necho noise\nexit 1`);
    expect(run.status).toBe(1);
    expect(run.tail).toContain('failed tests:\ntests/a.test.ts > adds: expected 3 to be 4');
    expect(run.tail).not.toContain('no test named');
  });

  it('every step passed: the table and the verdict only', () => {
    const run = npmTestWith('exit 0');
    expect(run.status).toBe(0);
    expect(run.tail.trimEnd()).toMatch(/npm test: all 7 steps passed; \d+ s$/);
    expect(run.tail).not.toContain('failed');
  });
});

describe("the suites' reporter", () => {
  it('names a block whose afterAll failed, though its tests passed', () => {
    const dir = mkdtempSync(join(tmpdir(), 'reporter-'));
    dirs.push(dir);
    const reporter = join(process.cwd(), 'tests/support/failed-tests-reporter.ts');
    writeFileSync(join(dir, 'vitest.config.mjs'), `import { failedTestsReporter } from '${reporter}';\nexport default { test: { globals: true, include: ['*.spec.mjs'], reporters: [failedTestsReporter()] } };\n`);
    writeFileSync(join(dir, 'block.spec.mjs'), `describe('a server block', () => {\n  afterAll(() => { throw new Error('the server did not stop'); });\n  it('answers', () => expect(1).toBe(1));\n});\n`);
    const failures = join(dir, 'failed.txt');
    const vitest = join(process.cwd(), 'node_modules/vitest/vitest.mjs');
    const run = spawnSync(process.execPath, [vitest, 'run', '--root', dir, '--config', join(dir, 'vitest.config.mjs')], { cwd: dir, encoding: 'utf8', env: { ...process.env, TEST_FAILURES_FILE: failures } });
    expect(run.status).toBe(1);
    expect(readFileSync(failures, 'utf8')).toBe('block.spec.mjs > a server block (a hook of the block): the server did not stop\n');
  });
});
