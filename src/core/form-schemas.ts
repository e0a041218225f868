import extendedSchema from '../../schemas/forms/extended.schema.json';
import extendedUi from '../../schemas/forms/extended.ui.json';
import simpleSchema from '../../schemas/forms/simple.schema.json';
import simpleUi from '../../schemas/forms/simple.ui.json';
import type { FormSchema, UiSchema } from './form-schema';
import type { Variant } from './types';

export * from './form-schema';

/** Every variant's schema and uiSchema, for the server and the CLI; the page loads only its own. */
export const formSchemas: Record<Variant, { schema: FormSchema; uiSchema: UiSchema }> = {
  extended: { schema: extendedSchema as FormSchema, uiSchema: extendedUi },
  simple: { schema: simpleSchema as FormSchema, uiSchema: simpleUi },
};
