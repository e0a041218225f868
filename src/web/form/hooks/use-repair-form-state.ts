import { DECIDING, type FormField, type FormWidget } from '../../../core/form-widgets';
import type { Translate } from '../../../core/texts';
import { useContext, useMemo, useRef, type RefObject } from 'react';
import type { FieldErrors } from '../../../core/field-errors';
import type { FormSeed } from '../../../core/form-seed';
import { startingData } from '../../../core/payload';
import type { Brand, Country, Locale } from '../../../core/types';
import { createFormHandlers, type FormHandlers } from '../form-handlers';
import { initialFormState, type FormState } from '../form-state';
import { SendingContext } from '../sending';
import { submitForm } from '../submit-form';
import type { FormValidation } from '../validation';
import { usePhotoUploads } from '../widgets/photo-upload/use-photo-uploads';
import { useAddressLookup } from './use-address-lookup';
import { useFormStore } from './use-form-store';
import { usePickup } from './use-pickup';
import { usePressHold } from './use-press-hold';

interface RepairFormInput {
  brand: Brand;
  locale: Locale;
  country: Country;
  t: Translate;
  validation: FormValidation;
  /** The server's seed for this brand's page, if it rendered one after a post without scripts. */
  seed: FormSeed | null;
}

export interface RepairFormView {
  state: FormState;
  /** Errors of touched fields only, held while a pointer presses: what the user may see. */
  visibleErrors: FieldErrors;
  lookupBusy: boolean;
  handlers: FormHandlers;
  submit(): void;
  /** The form's wrapper: hydration pick-up reads the prerendered controls inside it. */
  root: RefObject<HTMLDivElement | null>;
}

/** Fields whose change is a decision (select, checkbox): validated at once, not on blur. */
function changeCommitted(uiSchema: Record<string, unknown>, brand: Brand): Set<string> {
  const names = new Set<string>();
  for (const [name, ui] of Object.entries(uiSchema)) {
    const entry = ui as { 'ui:widget'?: FormWidget; 'ui:field'?: FormField } | null;
    const kind = entry?.['ui:field'] ?? entry?.['ui:widget'];
    const decides = kind && Object.hasOwn(DECIDING, kind) ? DECIDING[kind] : undefined;
    if (decides === 'always' || (decides === 'when-a-choice' && brand.brandField.mode === 'choice')) names.add(name);
  }
  return names;
}

/** The form's one state (form-state.ts) wired to uploads, lookup, drafts, submit and pointer presses. */
export function useRepairFormState({ brand, locale, country, t, validation, seed }: RepairFormInput): RepairFormView {
  const { model } = validation;
  const allFields = useMemo(() => [...model.fieldOrder, ...Object.keys(model.schema.properties)], [model]);
  const store = useFormStore(() =>
    initialFormState({
      // What the page starts with: the same on the server and in the first client render.
      formData: seed?.formData ?? startingData(model, locale, country),
      errors: seed?.errors,
      touched: seed ? allFields : [],
      sentTo: seed?.sentTo,
      reference: seed?.reference,
    }),
  );
  const { state, dispatch, read } = store;
  const sending = useContext(SendingContext);
  const uploads = usePhotoUploads(dispatch, sending.upload);
  usePressHold(dispatch);
  const root = useRef<HTMLDivElement>(null);

  const deps = useMemo(
    () => ({
      brand,
      locale,
      t,
      validation,
      store: { dispatch, read },
      uploads,
      submit: sending.submit,
      committedOnChange: changeCommitted(model.uiSchema, brand),
      uploadTargets: Object.fromEntries(model.photos.map((p) => [p.picker, p.target])),
    }),
    [brand, locale, t, validation, model, dispatch, read, uploads, sending.submit],
  );
  const handlers = useMemo(() => createFormHandlers(deps), [deps]);
  usePickup({ deps, handlers, country, seed, root });

  const { lookup, roles } = model;
  const value = (field: string | undefined) => (field === undefined ? undefined : state.formData[field]);
  const lookupBusy = useAddressLookup({
    country: value(roles.country),
    postalCode: value(lookup.postcode),
    houseNumber: value(lookup.huisnummer),
    baseUrl: () => read().settings.addressLookupUrl,
    onFound: handlers.onAddressFound,
  });

  return {
    state,
    visibleErrors: state.shownErrors,
    lookupBusy,
    handlers,
    submit: () => void submitForm(deps, handlers, allFields),
    root,
  };
}
