import { HandoverError } from './handover-error.ts';

/**
 * A commit message as `git am` will record it, the same text whichever way
 * the change is handed over. Git tidies a message (trailing spaces, runs of
 * blank lines) and that is done here too; what git would misread (a subject
 * it shortens, a line it takes for the start of the diff or of another mail)
 * is refused in plain words, since rewording it is the writer's call.
 */
export function commitMessage(subject: string, body: string): { subject: string; body: string } {
  const oneLine = subject.replace(/\s+/g, ' ').trim();
  if (oneLine === '') throw new HandoverError('The change needs a subject: one line that says what changed.');
  // mailinfo strips leading "Re:", ":" and [bracketed] parts, as mail programs add them.
  if (/^(re:|:|\[)/i.test(oneLine)) {
    throw new HandoverError(`The subject "${oneLine}" may not start with "[", ":" or "Re:": git would leave that part out.`);
  }
  const tidy = tidyBody(body);
  tidy.split('\n').forEach(checkBodyLine);
  if (/^(from|subject|date):/i.test(tidy)) {
    throw new HandoverError('The message may not start with "From:", "Subject:" or "Date:": git would read that line as the mail\'s header.');
  }
  return { subject: oneLine, body: tidy };
}

/** Git's stripspace: no trailing whitespace, one blank line at most between paragraphs, none around. */
function tidyBody(body: string): string {
  return body
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) => line.replace(/\s+$/, ''))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .replace(/^\n+|\n+$/g, '');
}

function checkBodyLine(line: string, index: number): void {
  // mailinfo's patchbreak(), and mailsplit's test for the next mail of an mbox.
  const startsDiff = line.startsWith('diff -') || line.startsWith('Index: ') || /^---( \S|$)/.test(line);
  const startsMail = line.startsWith('From ');
  if (startsDiff || startsMail) {
    const reads = startsDiff ? 'the start of the file changes' : 'the start of another mail';
    throw new HandoverError(`Line ${index + 1} of the message, "${line}", would be read as ${reads}. Reword that line.`);
  }
}
