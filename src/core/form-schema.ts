/** The shape of a form variant's schema and what page, server and CLI read from it. */
export interface PropertySchema {
  type?: string;
  maxLength?: number;
  formOnly?: boolean;
  enum?: string[];
  [keyword: string]: unknown;
}

export interface FormSchema {
  $id: string;
  type: 'object';
  required: string[];
  properties: Record<string, PropertySchema>;
  [keyword: string]: unknown;
}

export type UiSchema = Record<string, unknown>;

/** Fields of the request as sent and stored: every property that is not form-only. */
export function requestFields(schema: FormSchema): string[] {
  return Object.keys(schema.properties).filter((name) => !schema.properties[name].formOnly);
}

/** Limits of a file-rules keyword, e.g. for the server's upload route. */
export function photoRules(schema: FormSchema): { maxBytes: number; types: string[] } {
  const upload = Object.values(schema.properties).find((p) => p.fileRules);
  if (!upload) throw new Error(`${schema.$id} has no fileRules`);
  return upload.fileRules as { maxBytes: number; types: string[] };
}

/**
 * The request's fields in the order the form shows them: the uiSchema's
 * sections (a photo picker stands for the field its upload fills, its
 * `target`), then the fields the form sends without showing them.
 */
export function requestFieldsInFormOrder(schema: FormSchema, uiSchema: UiSchema): string[] {
  const fields = requestFields(schema);
  const options = uiSchema['ui:options'] as { sections?: { fields: string[] }[] } | undefined;
  const target = (name: string) => (uiSchema[name] as { 'ui:options'?: { target?: string } } | undefined)?.['ui:options']?.target;
  const shown = (options?.sections ?? []).flatMap((s) => s.fields).map((name) => target(name) ?? name);
  return [...new Set([...shown.filter((name) => fields.includes(name)), ...fields])];
}

/** Photo picker → the hidden field its stored file name goes to (ui:options.target), inverted: target → picker. */
export function uploadAliases(uiSchema: UiSchema): Record<string, string> {
  const aliases: Record<string, string> = {};
  for (const [name, ui] of Object.entries(uiSchema)) {
    const entry = ui as { 'ui:field'?: string; 'ui:options'?: { target?: string } } | null;
    const target = entry?.['ui:options']?.target;
    if (entry?.['ui:field'] === 'photoUpload' && target) aliases[target] = name;
  }
  return aliases;
}
