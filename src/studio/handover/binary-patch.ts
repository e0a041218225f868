import { zlibSync } from 'fflate';
import { encodeBase85 } from './base85.ts';

// Git writes at most 52 bytes of deflated data a line (diff.c, emit_binary_diff_body).
const BYTES_A_LINE = 52;

/**
 * The body of a `GIT binary patch`: the new content whole (`literal`), then
 * the old one, so `git apply -R` works too. Git checks the result against
 * the full blob ids of the `index` line, which the caller writes.
 */
export function binaryPatchLines(before: Uint8Array, after: Uint8Array): string[] {
  return ['GIT binary patch', ...literal(after), '', ...literal(before), ''];
}

function literal(content: Uint8Array): string[] {
  const deflated = zlibSync(content);
  const lines = [`literal ${content.length}`];
  for (let at = 0; at < deflated.length; at += BYTES_A_LINE) {
    const chunk = deflated.subarray(at, at + BYTES_A_LINE);
    lines.push(lengthDigit(chunk.length) + encodeBase85(chunk));
  }
  return lines;
}

/** A line's byte count: A–Z for 1–26, a–z for 27–52. */
function lengthDigit(count: number): string {
  return count <= 26 ? String.fromCharCode(64 + count) : String.fromCharCode(96 + count - 26);
}
