/** One line for a header: no line breaks or runs of spaces from typed text. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Plain text ends with its last line: no trailing blank lines or spaces. */
export function tidyText(text: string): string {
  return `${text.replace(/[ \t]+$/gm, '').replace(/\s+$/, '')}\n`;
}
