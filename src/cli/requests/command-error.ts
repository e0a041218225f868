/**
 * What a staff command says when it will not or cannot do its work: one
 * plain line for the operator (one per line of its message, where several
 * things each need saying), and the exit code (2: the command was given
 * wrongly; 1: anything else).
 */
export class CommandError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

/**
 * Runs a command and ends the process with its exit code. Every failure is
 * one line on stderr without a stack trace: the reader is an operator, and
 * what went wrong (a missing file, a database that does not answer) is in the message.
 */
export async function runCommand(command: () => Promise<number | void>): Promise<void> {
  try {
    process.exitCode = (await command()) ?? 0;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    // A command's own message keeps its lines; anything else (a driver's, with a stack's layout) is one line.
    const lines = error instanceof CommandError ? message.split('\n') : [message];
    for (const line of lines) console.error(line.replace(/\s*\n\s*/g, ' '));
    process.exitCode = error instanceof CommandError ? error.exitCode : 1;
  }
}
