import type { IChangeEvent } from '@rjsf/core';
import type { Translate } from '../../core/texts';
import type { FoundAddress } from '../../core/address-lookup';
import type { FieldErrors, ValidationIssue } from '../../core/field-errors';
import type { Brand, Locale, RepairFormData } from '../../core/types';
import { saveDraft, saveThumbnail } from './draft-storage';
import type { RepairFormActions } from './form-context';
import { fieldNameOf } from './form-context';
import type { FormStore } from './form-state';
import type { FormValidation } from './validation';
import { quietUploads, refusedIssues } from './upload-state';
import type { PhotoUploads } from './widgets/photo-upload/use-photo-uploads';
import type { Sending } from './sending';

/** What the handlers work with; all of it stable for a page view, so the handlers are too. */
export interface FormDeps {
  brand: Brand;
  locale: Locale;
  t: Translate;
  validation: FormValidation;
  store: Pick<FormStore, 'dispatch' | 'read'>;
  uploads: PhotoUploads;
  /** Where the request goes when sent. */
  submit: Sending['submit'];
  /** Fields whose change is a decision (select, checkbox): validated at once, not on blur. */
  committedOnChange: ReadonlySet<string>;
  /** Picker field → the hidden field its file name goes to (upload_1 → image1). */
  uploadTargets: Record<string, string>;
}

export interface FormHandlers extends RepairFormActions {
  /** A change of data: kept, and saved as a draft once the page has hydrated. */
  commit(next: RepairFormData): void;
  /** `refused`: the server's refusals of photos (by default every one still shown). */
  validateNow(next?: RepairFormData, quiet?: string[], refused?: ValidationIssue[]): FieldErrors;
  onChange(event: IChangeEvent): void;
  onBlur(id: string): void;
  onAddressFound(address: FoundAddress): void;
}

/** Fields whose value differs between two versions of the data. */
export function changedFields(prev: RepairFormData, next: RepairFormData): string[] {
  const a = prev as Record<string, unknown>;
  const b = next as Record<string, unknown>;
  return [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => a[k] !== b[k]);
}

/** A small picture of the chosen photo, kept for a reload, which loses the file itself; the shrinking code makes it (loaded now anyway). */
function keepThumbnail({ dispatch }: Pick<FormStore, 'dispatch'>, brandId: string, field: string, file: File): void {
  import('./widgets/photo-upload/shrink-photo')
    .then(({ thumbnailUrl }) => thumbnailUrl(file))
    .then((url) => dispatch({ type: 'thumbnailsSaved', thumbnails: saveThumbnail(brandId, field, file.name, url) }))
    .catch(() => undefined);
}

export function createFormHandlers(deps: FormDeps): FormHandlers {
  const { brand, locale, t, validation, store, uploads, committedOnChange, uploadTargets } = deps;
  const { dispatch, read } = store;
  const announce = (message: string) => dispatch({ type: 'announced', message });
  const quietTargets = () => quietUploads(read().uploads).map((f) => uploadTargets[f]).filter(Boolean);

  const handlers: FormHandlers = {
    commit(next) {
      dispatch({ type: 'edited', data: next });
      const { hydrated, countryChosen } = read();
      if (hydrated) saveDraft(brand.id, next, countryChosen);
    },
    validateNow(next = read().formData, quiet = quietTargets(), refused = refusedIssues(read().uploads)) {
      const found = validation.validate(next, locale, quiet, brand, refused);
      dispatch({ type: 'validated', errors: found });
      return found;
    },
    onChange(event) {
      const next = { ...((event.formData as RepairFormData | undefined) ?? {}) };
      const decided = changedFields(read().formData, next).filter((name) => committedOnChange.has(name));
      handlers.commit(next);
      if (decided.length) {
        dispatch({ type: 'touched', names: decided });
        handlers.validateNow(next);
      }
    },
    onBlur(id) {
      // A pointer press that caused this blur sees its error only after its click (form-state.ts: shownErrors).
      dispatch({ type: 'touched', names: [fieldNameOf(id)] });
      handlers.validateNow();
    },
    onAddressFound(address) {
      // The fields that take the lookup's street and city (ui:options.addressLookup in the uiSchema).
      const { straatnaam, woonplaatsnaam } = validation.model.lookup;
      handlers.commit({
        ...read().formData,
        ...(straatnaam === undefined ? {} : { [straatnaam]: address.street }),
        ...(woonplaatsnaam === undefined ? {} : { [woonplaatsnaam]: address.city }),
      });
      handlers.validateNow();
      announce(t('form.lookupFilled', { street: address.street, city: address.city }));
    },
    choosePhoto(field, target, file) {
      keepThumbnail(store, brand.id, field, file);
      const next: RepairFormData = { ...read().formData, [field]: { name: file.name, size: file.size, type: file.type } };
      delete (next as Record<string, unknown>)[target];
      handlers.commit(next);
      dispatch({ type: 'touched', names: [field] });
      // A file the server refused before is being replaced: its refusal is not this file's.
      const found = handlers.validateNow(next, [...quietTargets(), target], refusedIssues(read().uploads, field));
      if (found[field]?.length) {
        uploads.refuse(field, file);
        return;
      }
      uploads.start(field, file, { url: `${read().settings.apiBase}/api/forms/images`, locale }, {
        onDone(filename) {
          handlers.commit({ ...read().formData, [target]: filename });
          handlers.validateNow();
          announce(t('upload.uploaded', { name: file.name }));
        },
        onError(refused, said) {
          if (!refused) {
            handlers.validateNow();
            announce(said ?? t('upload.networkError'));
            return;
          }
          // Refused by the server as the page's own check refuses: the same message, nothing to retry.
          const message = handlers.validateNow(undefined, [...quietTargets(), target])[field]?.[0];
          if (message) announce(message);
        },
      });
    },
    retryPhoto(field, target) {
      const file = uploads.chosen(field);
      if (file) handlers.choosePhoto(field, target, file);
    },
  };
  return handlers;
}
