import extendedSchema from '../../schemas/forms/extended.schema.json';
import extendedUi from '../../schemas/forms/extended.ui.json';
import simpleSchema from '../../schemas/forms/simple.schema.json';
import simpleUi from '../../schemas/forms/simple.ui.json';
import type { Variant } from './types';

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

export const formSchemas: Record<Variant, { schema: FormSchema; uiSchema: UiSchema }> = {
  extended: { schema: extendedSchema as FormSchema, uiSchema: extendedUi },
  simple: { schema: simpleSchema as FormSchema, uiSchema: simpleUi },
};

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
