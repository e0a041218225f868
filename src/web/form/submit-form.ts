import { roleValue } from '../../core/form-model';
import { shapeRequest } from '../../core/payload';
import { clearDraft, saveSent } from './draft-storage';
import { attemptFor } from './form-state';
import type { FormDeps, FormHandlers } from './form-handlers';
import { newUuid, submitRepairRequest } from './submit-request';

/**
 * A press of submit: wait for photos on their way, validate the whole form,
 * send, then success or the error notice. Each step is an event of form-state.ts.
 */
export async function submitForm(deps: FormDeps, handlers: Pick<FormHandlers, 'validateNow'>, allFields: string[]): Promise<void> {
  const { brand, locale, t, validation, store, uploads } = deps;
  const { dispatch, read } = store;
  // One press at a time: every wait below happens in the submitting phase.
  if (read().phase === 'submitting') return;
  if (uploads.running().length) {
    // Never send without the file names: wait for the photos still on their way.
    dispatch({ type: 'waitingForUploads', message: t('form.waitingForUpload') });
    await uploads.settled();
  }
  dispatch({ type: 'touched', names: allFields });
  const found = handlers.validateNow(read().formData, []);
  if (Object.keys(found).length) {
    // Focus goes to the first field in error (the extended form's summary lists them all above).
    dispatch({ type: 'rejected', firstError: validation.model.fieldOrder.find((name) => found[name]?.length) });
    return;
  }
  const body = shapeRequest(read().formData, validation.model, brand, locale);
  const attempt = attemptFor(read().attempt, JSON.stringify(body), newUuid());
  dispatch({ type: 'sending', attempt, message: t('form.submitting') });
  let reference: string | undefined;
  try {
    ({ reference } = await submitRepairRequest({
      apiBase: read().settings.apiBase,
      brandId: brand.id,
      body,
      idempotencyKey: attempt.key,
      locale,
    }));
  } catch {
    dispatch({ type: 'failed' });
    return;
  }
  // The confirmation names the address it was sent to (the customer-email field).
  const email = roleValue(validation.model, body, 'customer-email') ?? '';
  saveSent(brand.id, { email, reference });
  clearDraft(brand.id);
  dispatch({ type: 'sent', email, reference });
}
