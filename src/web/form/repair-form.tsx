import Form from '@rjsf/core';
import type { Field, RegistryFieldsType, RegistryWidgetsType, RJSFSchema, TemplatesType, Widget } from '@rjsf/utils';
import { Suspense, use, useContext, useMemo } from 'react';
import { brandPath, newRequestPath } from '../../core/brands';
import { SUBMISSION_FIELD } from '../../core/form-post';
import type { FormField, FormWidget, RjsfWidget } from '../../core/form-widgets';
import type { Translate } from '../../core/texts';
import type { Brand, Country, Locale } from '../../core/types';
import { LocaleContext, useTexts } from '../i18n';
import { forgetSent } from './draft-storage';
import { BrandChoiceField } from './fields/brand-choice-field';
import type { RepairFormContext } from './form-context';
import { FormSeedContext } from './form-seed';
import type { FormState } from './form-state';
import { useFocusRequest } from './hooks/use-focus-request';
import { useRepairFormState } from './hooks/use-repair-form-state';
import { BaseInputTemplate } from './templates/base-input-template';
import { ErrorSummary } from './templates/error-summary';
import { FieldTemplate } from './templates/field-template';
import { ObjectFieldTemplate } from './templates/object-field-template';
import { PostNotice } from './templates/post-notice';
import { SuccessPanel } from './templates/success-panel';
import { FormSourceContext } from './validation';
import { PhotoUploadField } from './fields/photo-upload-field';
import { WholeNumberField } from './fields/whole-number-field';
import { SelectWidget } from './widgets/select/select-widget';
import { TermsCheckboxWidget } from './widgets/terms-checkbox/terms-checkbox-widget';
import { TextareaWidget } from './widgets/textarea/textarea-widget';

export interface RepairFormProps {
  brand: Brand;
  locale: Locale;
  country: Country;
}

// Plain function components only (React 19 + rjsf 6 reject memo/forwardRef widgets).
const templates: Partial<Omit<TemplatesType, 'ButtonTemplates'>> = {
  FieldTemplate,
  ObjectFieldTemplate,
  BaseInputTemplate,
  ErrorListTemplate: () => null,
};
// Every name core/form-widgets.ts lists but rjsf's own: a name added there and not here fails the typecheck.
// rjsf asks for `select` also for a field with choices and no ui:widget, so this one serves both.
const widgets: RegistryWidgetsType = { textarea: TextareaWidget, select: SelectWidget, termsCheckbox: TermsCheckboxWidget } satisfies Record<Exclude<FormWidget, RjsfWidget>, Widget>;
const portalFields = { photoUpload: PhotoUploadField, brandChoice: BrandChoiceField } satisfies Record<FormField, Field>;
// NumberField replaces rjsf's own for whole numbers (fields/whole-number-field.tsx).
const fields: RegistryFieldsType = { ...portalFields, NumberField: WholeNumberField };
// No defaults from the schema: rjsf would otherwise tick the terms box (`const: true` as default)
// and create empty photo objects.
const defaultsBehaviour = { emptyObjectFields: 'skipDefaults', constAsDefaults: 'never' } as const;

export function RepairForm({ brand, locale, country }: RepairFormProps) {
  return (
    <LocaleContext.Provider value={locale}>
      {/* The form's validator arrives in its own chunk; prerendering waits for it, hydration keeps the server markup meanwhile. */}
      <Suspense fallback={null}>
        <RepairFormBody brand={brand} locale={locale} country={country} />
      </Suspense>
    </LocaleContext.Provider>
  );
}

function RepairFormBody({ brand, locale, country }: RepairFormProps) {
  const texts = useTexts();
  const { languages } = texts;
  const t = useMemo(() => texts.t(locale), [texts, locale]);
  const validation = use(useContext(FormSourceContext)(brand.form));
  // A page the server rendered after a post without scripts starts where that post left off.
  const seeded = useContext(FormSeedContext);
  const seed = seeded?.brandId === brand.id ? seeded : null;
  const form = useRepairFormState({ brand, locale, country, t, validation, seed });
  const { state, visibleErrors, lookupBusy, handlers } = form;

  const formContext = useMemo<RepairFormContext>(
    () => ({
      model: validation.model,
      locale,
      brand,
      country,
      t,
      texts: languages,
      visibleErrors,
      lookupBusy,
      uploads: state.uploads,
      thumbnails: state.thumbnails,
      actions: handlers,
    }),
    [validation.model, brand, locale, country, t, languages, visibleErrors, lookupBusy, state.uploads, state.thumbnails, handlers],
  );

  if (state.phase === 'success') {
    return (
      <SuccessPanel
        email={state.sentTo}
        reference={state.reference}
        t={t}
        takeFocus={state.focusSuccess}
        newRequestHref={newRequestPath(brand.id, locale, country)}
        onNewRequest={() => forgetSent(brand.id)}
      />
    );
  }

  const submitting = state.phase === 'submitting';
  return (
    <div className={`repair-form repair-form--${brand.form}`} aria-busy={submitting || undefined} ref={form.root}>
      {seed?.notice && <PostNotice notice={seed.notice} t={t} />}
      {validation.model.options.errorSummary && <ErrorSummary errors={visibleErrors} order={validation.model.fieldOrder} t={t} />}
      <Form
        schema={validation.model.schema as RJSFSchema}
        uiSchema={validation.model.uiSchema}
        formData={state.formData}
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
        onChange={handlers.onChange}
        onBlur={handlers.onBlur}
        onSubmit={form.submit}
      >
        <FormActions phase={state.phase} focusRequest={state.focusRequest} t={t} />
      </Form>
      <div className="visually-hidden" role="status" aria-live="polite">
        {state.announcement}
      </div>
    </div>
  );
}

/** Under the fields: the submission key the server fills in, the sending's error, and the button. */
function FormActions({ phase, focusRequest, t }: { phase: FormState['phase']; focusRequest: FormState['focusRequest']; t: Translate }) {
  const noticeRef = useFocusRequest(focusRequest);
  return (
    <div className="form-actions">
      {/* Filled per page view by the server: a double post is one request. */}
      <input type="hidden" name={SUBMISSION_FIELD} defaultValue="" suppressHydrationWarning />
      {phase === 'error' && (
        <div className="notice notice--error" role="alert" tabIndex={-1} ref={noticeRef}>
          {t('form.submitError')}
        </div>
      )}
      <button type="submit" className="button button--primary" disabled={phase === 'submitting'}>
        {phase === 'submitting' && <span className="spinner" aria-hidden="true" />}
        {t('form.submit')}
      </button>
    </div>
  );
}
