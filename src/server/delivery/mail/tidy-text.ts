/** One line for a header: no line breaks or runs of spaces from typed text. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * Every line break as LF, however it was typed: CR LF, or a lone CR (an old Mac's, a pasted text's),
 * which the mail's encoding dropped, running two of the customer's lines into one.
 */
export function lineBreaks(text: string): string {
  return text.replace(/\r\n?/g, '\n');
}

/** Plain text ends with its last line: no trailing blank lines or spaces; its line breaks LF (lineBreaks). */
export function tidyText(text: string): string {
  return `${lineBreaks(text).replace(/[ \t]+$/gm, '').replace(/\s+$/, '')}\n`;
}
