/**
 * What a uiSchema may name: the widgets (`ui:widget`) and fields (`ui:field`)
 * the page renders (src/web/form/repair-form.tsx registers the portal's own;
 * rjsf brings text and hidden). `npm run validate` refuses any other name.
 */
export const FORM_WIDGETS = ['text', 'textarea', 'select', 'hidden', 'termsCheckbox'] as const;
export const FORM_FIELDS = ['photoUpload', 'brandChoice'] as const;

/** At most this many photos per form: the desk's mail carries them all. */
export const MAX_PHOTOS = 4;
