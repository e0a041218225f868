import type { FormOptions } from './form-model';

/**
 * What a uiSchema may name, the one list: the widgets (`ui:widget`) and fields (`ui:field`) the page
 * renders. The page's registry (src/web/form/repair-form.tsx) is typed against it and holds every
 * name but rjsf's own; `npm run validate` refuses any other name, and schemas/form-ui.schema.json
 * offers these to editors (a test keeps the two alike).
 */
export const FORM_WIDGETS = ['text', 'textarea', 'select', 'hidden', 'termsCheckbox'] as const;
export const FORM_FIELDS = ['photoUpload', 'brandChoice'] as const;
export type FormWidget = (typeof FORM_WIDGETS)[number];
export type FormField = (typeof FORM_FIELDS)[number];
/** The widgets rjsf brings as the page wants them: its registry replaces the others. */
export type RjsfWidget = 'text' | 'hidden';

/**
 * The widgets and fields whose change is a decision (a choice made, a box ticked), judged at once
 * rather than on leaving them: always, or only where the brand offers a choice.
 */
export const DECIDING: Partial<Record<FormWidget | FormField, 'always' | 'when-a-choice'>> = {
  select: 'always',
  termsCheckbox: 'always',
  brandChoice: 'when-a-choice',
};

/** The `ui:` keys the page reads: at the top of a uiSchema, and on a field. */
export const FORM_UI_KEYS = ['ui:options', 'ui:submitButtonOptions'] as const;
export const FIELD_UI_KEYS = ['ui:widget', 'ui:field', 'ui:options', 'ui:autocomplete'] as const;

/** The options of a form (`ui:options` at the top of its uiSchema): its sections and the behaviour switches of core/form-model.ts. */
export const FORM_OPTIONS = ['sections', 'errorSummary', 'stopAtMaxLength'] as const satisfies readonly ('sections' | keyof FormOptions)[];

/** The options of a field (its `ui:options`): the input's type and keyboard, a textarea's rows, the address lookup, a photo's target. */
export const FIELD_OPTIONS = ['inputType', 'inputMode', 'rows', 'addressLookup', 'target'] as const;

/** At most this many photos per form: the desk's mail carries them all. */
export const MAX_PHOTOS = 4;
