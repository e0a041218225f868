import type { FormSchema, UiSchema } from './form-schema.ts';

/** Annotations the page never reads (labels come from the language files; personal data concerns the server's log). */
const NOT_FOR_THE_PAGE = new Set(['title', 'description', '$comment', '$schema', 'personal']);

/** The schema as the page validates and renders it: every rule, without the annotations it never reads. */
export function pageSchema(schema: FormSchema): FormSchema {
  // A schema node's annotations go; the names under `properties` are fields (one is called description).
  const strip = (node: unknown, names = false): unknown => {
    if (Array.isArray(node)) return node.map((item) => strip(item));
    if (node === null || typeof node !== 'object') return node;
    return Object.fromEntries(
      Object.entries(node)
        .filter(([key]) => names || !NOT_FOR_THE_PAGE.has(key))
        .map(([key, value]) => [key, key === 'enum' || key === 'const' ? value : strip(value, !names && key === 'properties')]),
    );
  };
  return strip(schema) as FormSchema;
}

/** The uiSchema as the page reads it: its $schema names the rules editors read, nothing the page needs. */
export function pageUiSchema(uiSchema: UiSchema): UiSchema {
  const { $schema: _editorRules, ...page } = uiSchema;
  return page;
}
