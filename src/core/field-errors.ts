import messages from '../../schemas/forms/messages.json';
import type { Locale, Variant } from './types';

/** The parts of an ajv error object the mapping reads (ajv's ErrorObject fits). */
export interface ValidationIssue {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
}

/** Field name → its messages, in the order ajv reported them. */
export type FieldErrors = Record<string, string[]>;

type MessageTable = Record<string, string>;

/** The message table of one variant and locale (schemas/forms/messages.json). */
export function messageTable(variant: Variant, locale: Locale): MessageTable {
  return messages[variant][locale];
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
  const own = (key: string) => (Object.hasOwn(table, key) ? table[key] : undefined);
  const template = own(messageKey(issue)) ?? own(issue.keyword) ?? table.default;
  return template.replace('{limit}', String(issue.params.limit ?? ''));
}

/**
 * Turns validator output into messages per field, for the page and the
 * server alike. `aliases` moves errors of a hidden field onto the field the
 * user sees (image1 → its photo picker).
 */
export function fieldErrors(
  issues: readonly ValidationIssue[],
  variant: Variant,
  locale: Locale,
  aliases: Record<string, string> = {},
): FieldErrors {
  const table = messageTable(variant, locale);
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
