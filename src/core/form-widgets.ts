import type { FormOptions } from './form-model';

/**
 * What a uiSchema may name: the widgets (`ui:widget`) and fields (`ui:field`)
 * the page renders (src/web/form/repair-form.tsx registers the portal's own;
 * rjsf brings text and hidden). `npm run validate` refuses any other name,
 * and schemas/form-ui.schema.json offers these to editors (a test keeps the two alike).
 */
export const FORM_WIDGETS = ['text', 'textarea', 'select', 'hidden', 'termsCheckbox'] as const;
export const FORM_FIELDS = ['photoUpload', 'brandChoice'] as const;

/** The `ui:` keys the page reads: at the top of a uiSchema, and on a field. */
export const FORM_UI_KEYS = ['ui:options', 'ui:submitButtonOptions'] as const;
export const FIELD_UI_KEYS = ['ui:widget', 'ui:field', 'ui:options', 'ui:autocomplete'] as const;

/** The options of a form (`ui:options` at the top of its uiSchema): its sections and the behaviour switches of core/form-model.ts. */
export const FORM_OPTIONS = ['sections', 'errorSummary', 'stopAtMaxLength'] as const satisfies readonly ('sections' | keyof FormOptions)[];

/** The options of a field (its `ui:options`): the input's type and keyboard, a textarea's rows, the address lookup, a photo's target. */
export const FIELD_OPTIONS = ['inputType', 'inputMode', 'rows', 'addressLookup', 'target'] as const;

/** At most this many photos per form: the desk's mail carries them all. */
export const MAX_PHOTOS = 4;
