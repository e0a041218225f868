import { createScanner, parse, type ParseError } from 'jsonc-parser';

// jsonc-parser's token kinds and error codes are const enums, which isolated modules cannot read: their values.
const Kind = { CloseBrace: 2, CloseBracket: 4, Comma: 5, LineComment: 12, BlockComment: 13, LineBreak: 14, Trivia: 15, Unknown: 16, EOF: 17 } as const;
const Code = { PropertyNameExpected: 3, ValueExpected: 4, ColonExpected: 5, CommaExpected: 6, CloseBraceExpected: 7, CloseBracketExpected: 8, EndOfFileExpected: 9, UnexpectedEndOfString: 12, InvalidEscapeCharacter: 15, InvalidCharacter: 16 } as const;

/** A place in a text file as editors show it: both count from 1. */
export interface TextPosition {
  line: number;
  column: number;
}

/** One reason a JSON file cannot be read, with where it is and how to fix it. */
export interface SyntaxProblem extends TextPosition {
  message: string;
}

const BOM = '\uFEFF';
const CURLY_QUOTES = /[\u201C\u201D\u201E\u201F\u2018\u2019\u201A\u201B\u00AB\u00BB]/;

/**
 * What keeps a JSON file from parsing, in the words of someone who typed it:
 * the mistakes word processors and Windows editors make (BOM, curly quotes,
 * comments, a comma after the last item) are named as such; anything else
 * gets jsonc-parser's diagnosis in plain words. Empty when the text parses.
 */
export function jsonSyntaxProblems(text: string): SyntaxProblem[] {
  const at = (offset: number, message: string): SyntaxProblem => ({ ...positionAt(text, offset), message });
  const problems: SyntaxProblem[] = [];
  if (text.startsWith(BOM)) {
    problems.push(at(0, 'the file starts with an invisible byte-order mark (BOM), which editors such as Windows Notepad add. Save the file as "UTF-8" without BOM (in VS Code: click "UTF-8 with BOM" in the status bar, choose "Save with Encoding", then "UTF-8").'));
  }
  const body = text.startsWith(BOM) ? ' ' + text.slice(1) : text;
  problems.push(...typingMistakes(body).map(({ offset, message }) => at(offset, message)));
  if (problems.length > 0) return problems;
  const errors: ParseError[] = [];
  parse(body, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  if (errors.length > 0) return [at(errors[0].offset, parseErrorSentence(errors[0], body))];
  try {
    JSON.parse(text);
    return [];
  } catch (error) {
    return [at(0, `this is not valid JSON (${error instanceof Error ? error.message : String(error)}).`)];
  }
}

/** Comments, curly or single quotes, and a comma after the last item, found token by token. */
function typingMistakes(text: string): { offset: number; message: string }[] {
  const scanner = createScanner(text, false);
  const found: { offset: number; message: string }[] = [];
  let previous: { kind: number; offset: number } | undefined;
  for (let kind: number = scanner.scan(); kind !== Kind.EOF; kind = scanner.scan()) {
    const offset = scanner.getTokenOffset();
    const value = scanner.getTokenValue();
    if (kind === Kind.LineComment || kind === Kind.BlockComment) {
      found.push({ offset, message: `JSON files cannot contain comments (${kind === Kind.LineComment ? '//' : '/* */'}). Remove the comment; put notes for editors in the "notes" field instead.` });
      continue;
    }
    if (kind === Kind.Trivia || kind === Kind.LineBreak) continue;
    if (kind === Kind.Unknown && CURLY_QUOTES.test(value)) {
      found.push({ offset, message: `${value} uses curly quotes (“ ” or ‘ ’), which word processors put in. Names and texts must be between straight double quotes ("). Retype the quotes in a plain-text editor, or turn off "smart quotes".` });
    } else if (kind === Kind.Unknown && value.includes("'")) {
      found.push({ offset, message: `${value} uses single quotes ('). Names and texts must be between straight double quotes (").` });
    } else if ((kind === Kind.CloseBrace || kind === Kind.CloseBracket) && previous?.kind === Kind.Comma) {
      const what = kind === Kind.CloseBracket ? 'list' : 'group';
      found.push({ offset: previous.offset, message: `there is a comma after the last item of a ${what}. Remove this comma: JSON allows no comma before ${kind === Kind.CloseBracket ? ']' : '}'}.` });
    }
    previous = { kind, offset };
  }
  return found;
}

const PARSE_SENTENCES: Partial<Record<number, string>> = {
  [Code.CommaExpected]: 'a comma is missing here: items of a group or list are separated by commas. Add a comma before it (often at the end of the line above).',
  [Code.ColonExpected]: 'a colon (:) is missing between a name and its value, as in "name": "Acme".',
  [Code.PropertyNameExpected]: 'a name between double quotes was expected here, as in "name": "Acme".',
  [Code.ValueExpected]: 'a value was expected here: text between double quotes, a number, true, false, { … } or [ … ].',
  [Code.CloseBraceExpected]: 'a closing } is missing: every { needs its }.',
  [Code.CloseBracketExpected]: 'a closing ] is missing: every [ needs its ].',
  [Code.EndOfFileExpected]: 'the file goes on after its last }. Remove what follows it.',
  [Code.UnexpectedEndOfString]: 'a text is not closed: add the double quote (") at its end.',
  [Code.InvalidEscapeCharacter]: 'a backslash (\\) starts something JSON does not know. Write a backslash as \\\\.',
  [Code.InvalidCharacter]: 'a text contains a tab or line break. Keep each text on one line.',
};

function parseErrorSentence(error: ParseError, text: string): string {
  const sentence = PARSE_SENTENCES[error.error];
  if (sentence) return sentence;
  const found = text.slice(error.offset, error.offset + Math.max(error.length, 1));
  return `"${found}" is not allowed here. Check the quotes, commas and brackets around it.`;
}

/** Line and column (from 1) of a character offset. */
export function positionAt(text: string, offset: number): TextPosition {
  const before = text.slice(0, offset);
  const lineStart = before.lastIndexOf('\n') + 1;
  return { line: before.split('\n').length, column: offset - lineStart + 1 };
}
