import { Writable } from 'node:stream';

export interface LogLine {
  level: number;
  msg?: string;
  [key: string]: unknown;
}

/** A pino destination that keeps every log line, for tests that judge what the server logged. */
export function captureLogs(): { logger: { level: string; stream: Writable }; lines: LogLine[] } {
  const lines: LogLine[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as LogLine);
      done();
    },
  });
  return { logger: { level: 'info', stream }, lines };
}

/** pino's level numbers: 40 warn, 50 error, 60 fatal. */
export const ERROR_LEVEL = 50;
