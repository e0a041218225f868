import { FALLBACK_LOCALE, fillText, textAt, type Languages } from './texts';
import type { Locale, FormName } from './types';

/** The parts of an ajv error object the mapping reads (ajv's ErrorObject fits). */
export interface ValidationIssue {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
}

/** Field name → its messages, in the order ajv reported them. */
export type FieldErrors = Record<string, string[]>;

/** A message by its key (see messageKey), as a form says it in a language. */
export type MessageTable = (key: string) => string | undefined;

/**
 * The messages of one form in one language: the language file's
 * `validation.<form>` table, else its `validation.default`; a language
 * without the message falls back to Dutch the same way.
 */
export function messageTable(languages: Languages, formName: FormName, locale: Locale): MessageTable {
  const trees = [...new Set([locale, FALLBACK_LOCALE])].map((l) => languages.get(l));
  return (key) => {
    for (const tree of trees) {
      const found = textAt(tree, `validation.${formName}.${key}`) ?? textAt(tree, `validation.default.${key}`);
      if (found !== undefined) return found;
    }
    return undefined;
  };
}

function messageKey(issue: ValidationIssue): string {
  switch (issue.keyword) {
    case 'format':
      return `format.${String(issue.params.format)}`;
    case 'type':
      return `type.${String(issue.params.type)}`;
    case 'fileRules':
      return `fileRules.${String(issue.params.rule)}`;
    default:
      return issue.keyword;
  }
}

/** The field an issue belongs to: the first path segment, or the missing property for `required`. */
export function issueField(issue: ValidationIssue): string {
  if (issue.keyword === 'required') return String(issue.params.missingProperty);
  if (issue.keyword === 'additionalProperties' && issue.instancePath === '') {
    return String(issue.params.additionalProperty);
  }
  return issue.instancePath.split('/')[1] ?? '';
}

export function issueMessage(issue: ValidationIssue, table: MessageTable): string {
  const template = table(messageKey(issue)) ?? table(issue.keyword) ?? table('default') ?? issue.keyword;
  return fillText(template, { limit: issue.params.limit ?? '' });
}

/**
 * Turns validator output into messages per field, for the page and the
 * server alike. `aliases` moves errors of a hidden field onto the field the
 * user sees (image1 → its photo picker).
 */
export function fieldErrors(issues: readonly ValidationIssue[], table: MessageTable, aliases: Record<string, string> = {}): FieldErrors {
  // A text with invisible or control characters says so, even when nothing visible is left of it.
  const unreadable = new Set(issues.filter((i) => i.keyword === 'plainText').map(issueField));
  // Otherwise a text that says nothing counts as missing: the required message alone, as for an empty field.
  const blank = new Set(issues.filter((i) => i.keyword === 'filled').map(issueField).filter((f) => !unreadable.has(f)));
  // A Map, not an object: a field named `constructor` or `toString` must not find Object.prototype's.
  const out = new Map<string, string[]>();
  for (const issue of issues) {
    const raw = issueField(issue);
    if (blank.has(raw) ? issue.keyword !== 'filled' : issue.keyword === 'filled' && unreadable.has(raw)) continue;
    const field = Object.hasOwn(aliases, raw) ? aliases[raw] : raw;
    const message = issueMessage(issue, table);
    const list = out.get(field) ?? [];
    if (!list.includes(message)) list.push(message);
    out.set(field, list);
  }
  return Object.fromEntries(out);
}
