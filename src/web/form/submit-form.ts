import { roleValue } from '../../core/form-model';
import { shapeRequest } from '../../core/payload';
import { clearDraft, saveSent } from './draft-storage';
import { attemptFor } from './form-state';
import type { FormDeps, FormHandlers } from './form-handlers';
import { newUuid, PhotosGone } from './submit-request';

/**
 * A press of submit: wait for photos on their way, validate the whole form,
 * send, then success or the error notice. Each step is an event of form-state.ts.
 */
export async function submitForm(deps: FormDeps, handlers: Pick<FormHandlers, 'validateNow' | 'commit'>, allFields: string[]): Promise<void> {
  const { brand, locale, t, validation, store, uploads, submit } = deps;
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
    ({ reference } = await submit({
      apiBase: read().settings.apiBase,
      brandId: brand.id,
      body,
      idempotencyKey: attempt.key,
      locale,
    }));
  } catch (error) {
    if (error instanceof PhotosGone && chooseAgain(deps, handlers, error.fields)) return;
    dispatch({ type: 'failed' });
    return;
  }
  // The confirmation names the address it was sent to (the customer-email field).
  const email = roleValue(validation.model, body, 'customer-email') ?? '';
  saveSent(brand.id, { email, reference });
  clearDraft(brand.id);
  dispatch({ type: 'sent', email, reference });
}

/**
 * The server no longer holds some photos the request named (their upload expired or was removed): their
 * pickers are marked "choose this photo again", their stored names dropped (a retry would send them again,
 * and a draft would keep them), and the first takes the focus. False when none of them is a picker's.
 */
function chooseAgain({ validation, store, t }: FormDeps, handlers: Pick<FormHandlers, 'validateNow' | 'commit'>, fields: string[]): boolean {
  const pickers = validation.model.photos.filter((p) => fields.includes(p.target));
  if (pickers.length === 0) return false;
  const data: Record<string, unknown> = { ...store.read().formData };
  for (const { picker, target } of pickers) {
    delete data[target];
    store.dispatch({ type: 'uploadGone', field: picker });
  }
  handlers.commit(data);
  handlers.validateNow();
  store.dispatch({ type: 'rejected', firstError: pickers[0].picker });
  store.dispatch({ type: 'announced', message: t('upload.chooseAgain') });
  return true;
}
