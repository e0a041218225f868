import type { TFunction } from 'i18next';
import { useMemo, useRef, type RefObject } from 'react';
import type { FieldErrors } from '../../../core/field-errors';
import type { FormSeed } from '../../../core/form-seed';
import type { Brand, Country, Locale, RepairFormData } from '../../../core/types';
import { createFormHandlers, type FormHandlers } from '../form-handlers';
import { initialFormState, type FormState } from '../form-state';
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
  t: TFunction;
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

/** What the page starts with: the same on the server and in the first client render. */
function initialData(brand: Brand, locale: Locale, country: Country): RepairFormData {
  const data: RepairFormData = { country };
  if (brand.variant === 'extended') data.language = locale;
  return data;
}

/** Fields whose change is a decision (select, checkbox): validated at once, not on blur. */
function changeCommitted(uiSchema: Record<string, unknown>, brand: Brand): Set<string> {
  const names = new Set<string>();
  for (const [name, ui] of Object.entries(uiSchema)) {
    const entry = ui as { 'ui:widget'?: string; 'ui:field'?: string } | null;
    if (entry?.['ui:widget'] === 'select' || entry?.['ui:widget'] === 'termsCheckbox') names.add(name);
    if (entry?.['ui:field'] === 'brandChoice' && brand.brandField.mode === 'choice') names.add(name);
  }
  return names;
}

/** The form's one state (form-state.ts) wired to uploads, lookup, drafts, submit and pointer presses. */
export function useRepairFormState({ brand, locale, country, t, validation, seed }: RepairFormInput): RepairFormView {
  const allFields = useMemo(() => [...validation.fieldOrder, ...Object.keys(validation.schema.properties)], [validation]);
  const store = useFormStore(() =>
    initialFormState({
      formData: seed?.formData ?? initialData(brand, locale, country),
      errors: seed?.errors,
      touched: seed ? allFields : [],
      sentTo: seed?.sentTo,
      reference: seed?.reference,
    }),
  );
  const { state, dispatch, read } = store;
  const uploads = usePhotoUploads(dispatch);
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
      committedOnChange: changeCommitted(validation.uiSchema, brand),
      uploadTargets: Object.fromEntries(Object.entries(validation.aliases).map(([target, field]) => [field, target])),
    }),
    [brand, locale, t, validation, dispatch, read, uploads],
  );
  const handlers = useMemo(() => createFormHandlers(deps), [deps]);
  usePickup({ deps, handlers, country, seed, root });

  const lookupBusy = useAddressLookup({
    country: state.formData.country,
    postalCode: state.formData.postal_code,
    houseNumber: state.formData.house_number,
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
