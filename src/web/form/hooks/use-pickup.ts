import { useEffect, type RefObject } from 'react';
import type { FormSeed } from '../../../core/form-seed';
import type { FormModel } from '../../../core/form-model';
import { pageValues } from '../../../core/payload';
import type { Country, Locale, RepairFormData } from '../../../core/types';
import { type Draft, clearDraft, loadDraft, loadSent, loadThumbnails, saveDraft, saveSent } from '../draft-storage';
import { fieldNameOf } from '../form-context';
import type { FormDeps, FormHandlers } from '../form-handlers';
import { readRuntimeSettings } from '../runtime-settings';
import { photosChosenBeforeHydration, typedBeforeHydration } from '../typed-before-hydration';

interface PickupInput {
  deps: FormDeps;
  handlers: Pick<FormHandlers, 'choosePhoto'>;
  country: Country;
  seed: FormSeed | null;
  /** The prerendered markup, read for what was typed and chosen before the scripts ran. */
  root: RefObject<HTMLDivElement | null>;
}

/** Where a draft restarts: its data, with the route's country unless the customer chose one, in the page's language. */
function draftStart(draft: Draft, country: Country, locale: Locale, model: Pick<FormModel, 'roles'>): RepairFormData {
  const field = model.roles.country;
  const kept = field !== undefined && draft.countryChosen && draft.data[field];
  return { ...draft.data, ...(field === undefined || kept ? {} : { [field]: country }), ...pageValues(model, locale) };
}

/**
 * Runtime settings, the sent state, the draft and what was typed before the
 * scripts ran live in the browser only: read once, after hydration (the
 * first render must match the server's).
 */
export function usePickup({ deps, handlers, country, seed, root }: PickupInput): void {
  const { brand, locale, validation, store, uploadTargets } = deps;
  useEffect(() => {
    const settings = readRuntimeSettings(document);
    const seeded = seed?.sentTo ? { email: seed.sentTo, reference: seed.reference } : null;
    if (seeded) {
      saveSent(brand.id, seeded);
      clearDraft(brand.id);
    }
    const sent = seeded ?? loadSent(brand.id);
    if (sent) {
      store.dispatch({ type: 'sentFound', email: sent.email, reference: sent.reference, settings });
      return;
    }
    const current = store.read().formData;
    const draft = seed ? null : loadDraft(brand.id);
    const form = root.current?.querySelector('form');
    const { model } = validation;
    const typed = form ? typedBeforeHydration(form, model.schema, current) : {};
    // The customer's own country choice survives a route of another country; an old route's default does not.
    const countryField = model.roles.country;
    const countryChosen = countryField !== undefined && (Boolean(draft?.countryChosen && draft.data[countryField]) || Boolean(typed[countryField]));
    const start = draft ? draftStart(draft, country, locale, model) : current;
    const data = draft || Object.keys(typed).length ? { ...start, ...typed } : undefined;
    if (data) saveDraft(brand.id, data, countryChosen);
    store.dispatch({ type: 'pickedUp', settings, countryChosen, data, thumbnails: draft ? loadThumbnails(brand.id) : undefined });
    for (const [id, file] of form ? photosChosenBeforeHydration(form) : []) {
      const field = fieldNameOf(id);
      if (uploadTargets[field]) handlers.choosePhoto(field, uploadTargets[field], file);
    }
    // Once, after hydration: later changes of these come through React.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [brand, locale, country, seed]);
}
