// `npm test`: every step runs even when an earlier one fails, so one red
// suite does not hide the others; a table of the steps closes the run and the
// exit code is 1 when any failed. Plain Node, as supported-node.mjs: on a Node
// the portal does not support, that first step says so and nothing else runs
// (every other step would fail for the same reason).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const STEPS = [
  { name: 'supported-node', command: ['node', 'src/cli/supported-node.mjs'], gate: true },
  { name: 'typecheck', command: ['npm', 'run', 'typecheck'] },
  { name: 'lint', command: ['npm', 'run', 'lint'] },
  { name: 'validate', command: ['npm', 'run', 'validate'] },
  { name: 'test:unit', command: ['npm', 'run', 'test:unit'] },
  { name: 'test:e2e', command: ['npm', 'run', 'test:e2e'] },
  { name: 'test:engines', command: ['npm', 'run', 'test:engines'] },
];

// Ctrl-C reaches the running step too (one process group): the runner outlives it, stops, and prints the table.
process.on('SIGINT', () => {});

// The suites' reporters (tests/support/failed-tests-reporter.ts) name each failed test here, for the end of the run.
const failuresDir = mkdtempSync(join(tmpdir(), 'npm-test-'));
const failuresFile = join(failuresDir, 'failed.txt');
process.env.TEST_FAILURES_FILE = failuresFile;

const readFailures = () => {
  try {
    return readFileSync(failuresFile, 'utf8').trimEnd();
  } catch {
    return '';
  }
};

// A step that failed with no test named (a crash, a global setup, a main-process rejection) shows this many of its last lines at the end.
const TAIL_LINES = 25;

/** Runs the command with its output passed through as it comes (in colour on a terminal); resolves with its exit and its last lines. */
function run(command) {
  return new Promise((resolve) => {
    const env = process.stdout.isTTY ? { FORCE_COLOR: '1', ...process.env } : process.env;
    const child = spawn(command[0], command.slice(1), { stdio: ['inherit', 'pipe', 'pipe'], env });
    let tail = '';
    const keep = (chunk) => {
      tail = (tail + chunk.toString()).slice(-20_000);
    };
    child.stdout.on('data', (chunk) => (process.stdout.write(chunk), keep(chunk)));
    child.stderr.on('data', (chunk) => (process.stderr.write(chunk), keep(chunk)));
    child.on('close', (status, signal) => resolve({ status, signal, lastLines: tail.trimEnd().split('\n').slice(-TAIL_LINES).join('\n') }));
  });
}
const results = [];
const unexplained = [];
let stopped = '';
for (const step of STEPS) {
  if (stopped) {
    results.push({ name: step.name, status: 'not run', seconds: 0 });
    continue;
  }
  console.log(`\n== npm test: ${step.name}`);
  const started = performance.now();
  const namedBefore = readFailures();
  const ended = await run(step.command);
  const seconds = (performance.now() - started) / 1000;
  const status = ended.status === 0 ? 'passed' : 'failed';
  results.push({ name: step.name, status, seconds });
  if (status === 'failed' && readFailures() === namedBefore) unexplained.push(`${step.name} failed with no test named; its last lines:\n${ended.lastLines}`);
  // The person wants the run to end, not the next step to start (130: npm's exit on SIGINT).
  if (ended.signal === 'SIGINT' || ended.status === 130) stopped = 'stopped by Ctrl-C';
  else if (status === 'failed' && step.gate) stopped = `${step.name} failed`;
}

const width = Math.max(...STEPS.map((s) => s.name.length));
console.log(`\n${'step'.padEnd(width)}  status   seconds`);
for (const { name, status, seconds } of results) console.log(`${name.padEnd(width)}  ${status.padEnd(7)}  ${seconds.toFixed(1).padStart(7)}`);
const named = (status) => results.filter((r) => r.status === status).map((r) => r.name);
const [failed, notRun] = [named('failed'), named('not run')];
const failures = readFailures();
rmSync(failuresDir, { recursive: true, force: true });
for (const lines of unexplained) console.log(`\n${lines}`);
if (failures) console.log(`\nfailed tests:\n${failures}`);
const total = results.reduce((sum, r) => sum + r.seconds, 0).toFixed(0);
const verdict = failed.length === 0 ? `all ${results.length} steps passed` : `failed: ${failed.join(', ')}`;
console.log(`npm test: ${verdict}${notRun.length > 0 ? `; not run (${stopped}): ${notRun.join(', ')}` : ''}; ${total} s`);
process.exitCode = failed.length === 0 && notRun.length === 0 ? 0 : 1;
