import Form from '@rjsf/core';
import type { IChangeEvent } from '@rjsf/core';
import type { RegistryFieldsType, RegistryWidgetsType, RJSFSchema, TemplatesType } from '@rjsf/utils';
import { Suspense, use, useContext, useEffect, useMemo, useRef, useState } from 'react';
import { DEFAULT_ADDRESS_LOOKUP_URL, type FoundAddress } from '../../core/address-lookup';
import { brandPath } from '../../core/brands';
import { SUBMISSION_FIELD } from '../../core/form-post';
import type { FieldErrors } from '../../core/field-errors';
import { shapeRequest } from '../../core/payload';
import type { Brand, Country, Locale, RepairFormData } from '../../core/types';
import { i18n, LocaleContext } from '../i18n';
import { clearDraft, loadDraft, loadSent, loadThumbnails, saveDraft, saveSent, saveThumbnail, type Thumbnails } from './draft-storage';
import { BrandChoiceField } from './fields/brand-choice-field';
import { fieldId, fieldNameOf, type RepairFormActions, type RepairFormContext } from './form-context';
import { FormSeedContext } from './form-seed';
import { useAddressLookup } from './hooks/use-address-lookup';
import { usePressGuard } from './hooks/use-press-guard';
import { readRuntimeSettings, type RuntimeSettings } from './runtime-settings';
import { newUuid, submitRepairRequest } from './submit-request';
import { BaseInputTemplate } from './templates/base-input-template';
import { ErrorSummary } from './templates/error-summary';
import { FieldTemplate } from './templates/field-template';
import { ObjectFieldTemplate } from './templates/object-field-template';
import { SuccessPanel } from './templates/success-panel';
import { loadedFormValidation, loadFormValidation } from './validation';
import { PhotoUploadField } from './widgets/photo-upload/photo-upload-field';
import { usePhotoUploads } from './widgets/photo-upload/use-photo-uploads';
import { SelectWidget } from './widgets/select/select-widget';
import { TermsCheckboxWidget } from './widgets/terms-checkbox/terms-checkbox-widget';
import { photosChosenBeforeHydration, typedBeforeHydration } from './typed-before-hydration';
import { TextareaWidget } from './widgets/textarea/textarea-widget';

export interface RepairFormProps {
  brand: Brand;
  locale: Locale;
  country: Country;
}

type Phase = 'editing' | 'submitting' | 'error' | 'success';

// Plain function components only (React 19 + rjsf 6 reject memo/forwardRef widgets).
const templates: Partial<Omit<TemplatesType, 'ButtonTemplates'>> = {
  FieldTemplate,
  ObjectFieldTemplate,
  BaseInputTemplate,
  ErrorListTemplate: () => null,
};
const widgets: RegistryWidgetsType = { SelectWidget, TextareaWidget, termsCheckbox: TermsCheckboxWidget };
const fields: RegistryFieldsType = { photoUpload: PhotoUploadField, brandChoice: BrandChoiceField };
// No defaults from the schema: rjsf would otherwise tick the terms box (`const: true` as default)
// and create empty photo objects.
const defaultsBehaviour = { emptyObjectFields: 'skipDefaults', constAsDefaults: 'never' } as const;

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

export function RepairForm({ brand, locale, country }: RepairFormProps) {
  return (
    <LocaleContext.Provider value={locale}>
      {/* The variant's validator arrives in its own chunk; prerendering waits for it, hydration keeps the server markup meanwhile. */}
      <Suspense fallback={null}>
        <RepairFormBody brand={brand} locale={locale} country={country} />
      </Suspense>
    </LocaleContext.Provider>
  );
}

function RepairFormBody({ brand, locale, country }: RepairFormProps) {
  const t = useMemo(() => i18n.getFixedT(locale), [locale]);
  const validation = loadedFormValidation(brand.variant) ?? use(loadFormValidation(brand.variant));
  const committedOnChange = useMemo(() => changeCommitted(validation.uiSchema, brand), [validation, brand]);
  const uploadTargets = useMemo(
    () => Object.fromEntries(Object.entries(validation.aliases).map(([target, field]) => [field, target])),
    [validation],
  );

  // A page the server rendered after a post without scripts starts where that post left off.
  const seeded = useContext(FormSeedContext);
  const seed = seeded?.brandId === brand.id ? seeded : null;
  const allFields = () => [...validation.fieldOrder, ...Object.keys(validation.schema.properties)];
  const [formData, setFormData] = useState<RepairFormData>(() => seed?.formData ?? initialData(brand, locale, country));
  const [errors, setErrors] = useState<FieldErrors>(() => seed?.errors ?? {});
  const [touched, setTouched] = useState<ReadonlySet<string>>(() => new Set(seed ? allFields() : []));
  const [phase, setPhase] = useState<Phase>(seed?.sentTo ? 'success' : 'editing');
  const [sentTo, setSentTo] = useState(seed?.sentTo ?? '');
  const [focusSuccess, setFocusSuccess] = useState(false);
  const [announcement, setAnnouncement] = useState('');
  const [thumbnails, setThumbnails] = useState<Thumbnails>({});
  const [focusRequest, setFocusRequest] = useState<{ target: string } | null>(null);

  const data = useRef(formData);
  const settings = useRef<RuntimeSettings>({ apiBase: '', addressLookupUrl: DEFAULT_ADDRESS_LOOKUP_URL });
  const hydrated = useRef(false);
  const busy = useRef(false);
  const attempt = useRef<{ key: string; body: string } | null>(null);
  const noticeRef = useRef<HTMLDivElement>(null);
  const rootRef = useRef<HTMLDivElement>(null);
  const countryChosen = useRef(false);
  const chosenFiles = useRef(new Map<string, File>());
  const uploads = usePhotoUploads();
  const uploadsRef = useRef(uploads);
  const pressGuard = usePressGuard();

  // Runtime settings, the sent state, the draft and what was typed before the scripts ran live in
  // the browser only: read after hydration.
  useEffect(() => {
    settings.current = readRuntimeSettings(document);
    const sent = seed?.sentTo ? { email: seed.sentTo } : loadSent(brand.id);
    if (seed?.sentTo) {
      saveSent(brand.id, { email: seed.sentTo });
      clearDraft(brand.id);
    }
    if (sent) {
      setSentTo(sent.email);
      setPhase('success');
      hydrated.current = true;
      return;
    }
    const draft = seed ? null : loadDraft(brand.id);
    // The customer's own country choice survives a route of another country; an old route's default does not.
    countryChosen.current = Boolean(draft?.countryChosen && draft.data.country);
    const start: RepairFormData = draft
      ? { ...draft.data, country: countryChosen.current ? draft.data.country : country }
      : data.current;
    if (draft && brand.variant === 'extended') start.language = locale;
    const form = rootRef.current?.querySelector('form');
    const typed = form ? typedBeforeHydration(form, validation.schema, data.current) : {};
    if (typed.country) countryChosen.current = true;
    hydrated.current = true;
    if (draft || Object.keys(typed).length) commit({ ...start, ...typed });
    if (draft) setThumbnails(loadThumbnails(brand.id));
    for (const [id, file] of form ? photosChosenBeforeHydration(form) : []) {
      const field = fieldNameOf(id);
      if (uploadTargets[field]) actionsRef.current.choosePhoto(field, uploadTargets[field], file);
    }
    // Once, after hydration: later changes of these come through React.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [brand, locale, country, seed]);

  useEffect(() => {
    uploadsRef.current = uploads;
  });

  useEffect(() => {
    if (!focusRequest) return;
    if (focusRequest.target === 'notice') noticeRef.current?.focus();
    else document.getElementById(fieldId(focusRequest.target))?.focus();
  }, [focusRequest]);

  function commit(next: RepairFormData): void {
    data.current = next;
    setFormData(next);
    if (hydrated.current) saveDraft(brand.id, next, countryChosen.current);
  }

  /** Targets whose `required` stays quiet: their photo is still uploading, or failed (that says 'Netwerk error!'). */
  function quietTargets(): string[] {
    const state = uploadsRef.current.state;
    const quiet = Object.entries(state)
      .filter(([, s]) => s.status === 'uploading' || s.status === 'error')
      .map(([field]) => field);
    return [...new Set([...quiet, ...uploadsRef.current.running()])].map((f) => uploadTargets[f]).filter(Boolean);
  }

  function validateNow(next: RepairFormData = data.current, quiet: string[] = quietTargets()): FieldErrors {
    const found = validation.validate(next, locale, quiet, brand);
    setErrors(found);
    return found;
  }

  function markTouched(names: Iterable<string>): void {
    setTouched((prev) => {
      const merged = new Set(prev);
      for (const name of names) merged.add(name);
      return merged.size === prev.size ? prev : merged;
    });
  }

  function announce(message: string): void {
    setAnnouncement(message);
  }

  function onChange(event: IChangeEvent): void {
    const next = { ...((event.formData as RepairFormData | undefined) ?? {}) };
    const prev = data.current;
    const changed = [...new Set([...Object.keys(prev), ...Object.keys(next)])].filter(
      (k) => (prev as Record<string, unknown>)[k] !== (next as Record<string, unknown>)[k],
    );
    if (changed.includes('country')) countryChosen.current = true;
    commit(next);
    const decided = changed.filter((name) => committedOnChange.has(name));
    if (decided.length) {
      markTouched(decided);
      validateNow(next);
    }
  }

  function onBlur(id: string): void {
    pressGuard.afterPress(() => {
      markTouched([fieldNameOf(id)]);
      validateNow();
    });
  }

  function onAddressFound(address: FoundAddress): void {
    commit({ ...data.current, street_name: address.street, city: address.city });
    validateNow();
    announce(t('form.lookupFilled', { street: address.street, city: address.city }));
  }

  const actions: RepairFormActions = {
    choosePhoto(field, target, file) {
      chosenFiles.current.set(field, file);
      // Kept for a reload, which loses the file itself; the shrinking code makes it (loaded now anyway).
      import('./widgets/photo-upload/shrink-photo')
        .then(({ thumbnailUrl }) => thumbnailUrl(file))
        .then((url) => setThumbnails(saveThumbnail(brand.id, field, file.name, url)))
        .catch(() => undefined);
      const facts = { name: file.name, size: file.size, type: file.type };
      const next: RepairFormData = { ...data.current, [field]: facts };
      delete (next as Record<string, unknown>)[target];
      commit(next);
      markTouched([field]);
      const found = validateNow(next, [...quietTargets(), target]);
      if (found[field]?.length) {
        uploadsRef.current.refuse(field, file);
        return;
      }
      uploadsRef.current.start(field, file, `${settings.current.apiBase}/api/forms/images`, {
        onDone(filename) {
          commit({ ...data.current, [target]: filename });
          validateNow();
          announce(t('upload.uploaded', { name: file.name }));
        },
        onError() {
          validateNow();
          announce(t('upload.networkError'));
        },
      });
    },
      retryPhoto(field, target) {
      const file = chosenFiles.current.get(field);
      if (file) actions.choosePhoto(field, target, file);
    },
  };
  const actionsRef = useRef(actions);
  useEffect(() => {
    actionsRef.current = actions;
  });
  const stableActions = useMemo<RepairFormActions>(
    () => ({
      choosePhoto: (...args) => actionsRef.current.choosePhoto(...args),
      retryPhoto: (...args) => actionsRef.current.retryPhoto(...args),
    }),
    [],
  );

  const lookupBusy = useAddressLookup({
    country: formData.country,
    postalCode: formData.postal_code,
    houseNumber: formData.house_number,
    baseUrl: () => settings.current.addressLookupUrl,
    onFound: onAddressFound,
  });

  const visibleErrors = useMemo(() => {
    const shown: FieldErrors = {};
    for (const [name, messages] of Object.entries(errors)) if (touched.has(name)) shown[name] = messages;
    return shown;
  }, [errors, touched]);

  const formContext = useMemo<RepairFormContext>(
    () => ({
      variant: brand.variant,
      locale,
      brand,
      country,
      t,
      visibleErrors,
      lookupBusy,
      uploads: uploads.state,
      thumbnails,
      actions: stableActions,
    }),
    [brand, locale, country, t, visibleErrors, lookupBusy, uploads.state, thumbnails, stableActions],
  );

  async function submit(): Promise<void> {
    if (busy.current) return;
    busy.current = true;
    pressGuard.drop();
    try {
      if (uploadsRef.current.running().length) {
        // Never send without the file names: wait for the photos still on their way.
        setPhase('submitting');
        announce(t('form.waitingForUpload'));
        await uploadsRef.current.settled();
      }
      markTouched(allFields());
      const found = validateNow(data.current, []);
      if (Object.keys(found).length) {
        setPhase('editing');
        // Focus goes to the first field in error (the extended form's summary lists them all above).
        const first = validation.fieldOrder.find((name) => found[name]?.length);
        if (first) setFocusRequest({ target: first });
        return;
      }
      setPhase('submitting');
      announce(t('form.submitting'));
      const body = shapeRequest(data.current, validation.schema, brand, locale);
      const serialized = JSON.stringify(body);
      // One key per series of attempts with the same data: a retry after a lost answer is not a second request.
      if (!attempt.current || attempt.current.body !== serialized) attempt.current = { key: newUuid(), body: serialized };
      try {
        await submitRepairRequest({
          apiBase: settings.current.apiBase,
          brandId: brand.id,
          body,
          idempotencyKey: attempt.current.key,
          locale,
        });
      } catch {
        setPhase('error');
        announce('');
        setFocusRequest({ target: 'notice' });
        return;
      }
      saveSent(brand.id, { email: body.client_email });
      clearDraft(brand.id);
      setSentTo(body.client_email);
      setFocusSuccess(true);
      setPhase('success');
    } finally {
      busy.current = false;
    }
  }

  if (phase === 'success') {
    return <SuccessPanel email={sentTo} t={t} takeFocus={focusSuccess} />;
  }

  const submitting = phase === 'submitting';
  return (
    <div className={`repair-form repair-form--${brand.variant}`} aria-busy={submitting || undefined} ref={rootRef}>
      {brand.variant === 'extended' && (
        <ErrorSummary errors={visibleErrors} order={validation.fieldOrder} t={t} />
      )}
      <Form
        schema={validation.schema as RJSFSchema}
        uiSchema={validation.uiSchema}
        formData={formData}
        validator={validation.validator}
        formContext={formContext}
        templates={templates}
        widgets={widgets}
        fields={fields}
        experimental_defaultFormStateBehavior={defaultsBehaviour}
        // Without scripts (or before they run) the browser posts the form to the page's own address.
        method="post"
        enctype="multipart/form-data"
        action={brandPath(brand.id, locale, country)}
        noHtml5Validate
        noValidate
        showErrorList={false}
        onChange={onChange}
        onBlur={onBlur}
        onSubmit={() => void submit()}
      >
        <div className="form-actions">
          {/* Filled per page view by the server: a double post is one request. */}
          <input type="hidden" name={SUBMISSION_FIELD} defaultValue="" suppressHydrationWarning />
          {phase === 'error' && (
            <div className="notice notice--error" role="alert" tabIndex={-1} ref={noticeRef}>
              {t('form.submitError')}
            </div>
          )}
          <button
            type="submit"
            className="button button--primary"
            disabled={submitting}
            onPointerDown={pressGuard.onPointerDown}
          >
            {submitting && <span className="spinner" aria-hidden="true" />}
            {t('form.submit')}
          </button>
        </div>
      </Form>
      <div className="visually-hidden" role="status" aria-live="polite">
        {announcement}
      </div>
    </div>
  );
}
