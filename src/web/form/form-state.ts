import { DEFAULT_ADDRESS_LOOKUP_URL } from '../../core/address-lookup';
import type { FieldErrors } from '../../core/field-errors';
import type { RepairFormData } from '../../core/types';
import type { Thumbnails } from './draft-storage';
import type { RuntimeSettings } from './runtime-settings';
import { reduceUploads, type UploadEvent, type Uploads } from './upload-state';

/** Spec section 4: editing → submitting → success, or → error (the notice; the customer may retry). */
export type Phase = 'editing' | 'submitting' | 'error' | 'success';

/** Everything the form remembers, in one place; only formReducer changes it. */
/** The form's state as its handlers hold it (hooks/use-form-store.ts keeps it in React). */
export interface FormStore {
  state: FormState;
  dispatch(event: FormEvent): void;
  /** The state after every event so far: upload and submit callbacks outlive the render that made them. */
  read(): FormState;
}

export interface FormState {
  phase: Phase;
  formData: RepairFormData;
  /** All current errors; only those of touched fields show. */
  errors: FieldErrors;
  touched: ReadonlySet<string>;
  /**
   * What the page shows: the errors of touched fields, held as they were
   * while a pointer is pressing (hooks/use-press-hold.ts). Errors and the
   * extended form's panel take room, so a change during a press would move
   * the pressed control from under the pointer and lose the click.
   */
  shownErrors: FieldErrors;
  /** A pointer is down, or its click has not run yet. */
  pressing: boolean;
  /** The customer picked the country (kept with the draft: it then survives another country's route). */
  countryChosen: boolean;
  /** Browser-only state has been read: from then on every edit is kept as a draft. */
  hydrated: boolean;
  settings: RuntimeSettings;
  uploads: Uploads;
  thumbnails: Thumbnails;
  sentTo: string;
  /** The sent request's reference; empty when unknown (the panel then shows none). */
  reference: string;
  /** Success reached by this page's own submit (not a reload): the panel takes focus. */
  focusSuccess: boolean;
  /** Said by the polite live region. */
  announcement: string;
  /** A new object each time, so asking twice for the same target focuses twice. */
  focusRequest: { target: string } | null;
  attempt: Attempt | null;
}

/** One idempotency key per series of attempts with the same body: a retry after a lost answer is not a second request. */
export interface Attempt {
  key: string;
  body: string;
}

/** The attempt a send belongs to: the previous one if the body is the same, else a new one with `newKey`. */
export function attemptFor(previous: Attempt | null, body: string, newKey: string): Attempt {
  return previous?.body === body ? previous : { key: newKey, body };
}

export type FormEvent =
  | UploadEvent
  | { type: 'sentFound'; email: string; reference?: string; settings: RuntimeSettings }
  | { type: 'pickedUp'; settings: RuntimeSettings; countryChosen: boolean; data?: RepairFormData; thumbnails?: Thumbnails }
  | { type: 'edited'; data: RepairFormData }
  | { type: 'touched'; names: Iterable<string> }
  | { type: 'validated'; errors: FieldErrors }
  | { type: 'pressStarted' }
  | { type: 'pressEnded' }
  | { type: 'announced'; message: string }
  | { type: 'thumbnailsSaved'; thumbnails: Thumbnails }
  | { type: 'waitingForUploads'; message: string }
  | { type: 'rejected'; firstError?: string }
  | { type: 'sending'; attempt: Attempt; message: string }
  | { type: 'failed' }
  | { type: 'sent'; email: string; reference?: string };

export interface FormStart {
  formData: RepairFormData;
  /** A server seed's result: every field counts as touched, or the request was already sent. */
  touched?: Iterable<string>;
  errors?: FieldErrors;
  sentTo?: string;
  reference?: string;
}

export function initialFormState({ formData, touched = [], errors = {}, sentTo, reference }: FormStart): FormState {
  const touchedSet = new Set(touched);
  return {
    phase: sentTo ? 'success' : 'editing',
    formData,
    errors,
    touched: touchedSet,
    shownErrors: errorsOfTouched(errors, touchedSet),
    pressing: false,
    countryChosen: false,
    hydrated: false,
    settings: { apiBase: '', addressLookupUrl: DEFAULT_ADDRESS_LOOKUP_URL },
    uploads: {},
    thumbnails: {},
    sentTo: sentTo ?? '',
    reference: reference ?? '',
    focusSuccess: false,
    announcement: '',
    focusRequest: null,
    attempt: null,
  };
}

function errorsOfTouched(errors: FieldErrors, touched: ReadonlySet<string>): FieldErrors {
  const shown: FieldErrors = {};
  for (const [name, messages] of Object.entries(errors)) if (touched.has(name) && messages.length) shown[name] = messages;
  return shown;
}

function sameErrors(a: FieldErrors, b: FieldErrors): boolean {
  const names = Object.keys(a);
  return (
    names.length === Object.keys(b).length &&
    names.every((name) => a[name].length === b[name]?.length && a[name].every((message, i) => message === b[name][i]))
  );
}

/**
 * Brings the shown errors up to date, unless a press is going on. A rejected
 * submit shows them at once: its click has ended the press, and focus goes
 * to the first field in error in the same render.
 */
function withShownErrors(state: FormState, event: FormEvent): FormState {
  if (state.pressing && event.type !== 'rejected') return state;
  const shown = errorsOfTouched(state.errors, state.touched);
  // Unchanged errors keep their identity: no re-render of every field.
  return sameErrors(shown, state.shownErrors) ? state : { ...state, shownErrors: shown };
}

function withTouched(state: FormState, names: Iterable<string>): FormState {
  const merged = new Set(state.touched);
  for (const name of names) merged.add(name);
  // Unchanged state keeps its identity: no re-render for a field touched before.
  return merged.size === state.touched.size ? state : { ...state, touched: merged };
}

export function formReducer(state: FormState, event: FormEvent): FormState {
  const next = step(state, event);
  return next === state ? state : withShownErrors(next, event);
}

function step(state: FormState, event: FormEvent): FormState {
  switch (event.type) {
    case 'sentFound':
      return { ...state, settings: event.settings, hydrated: true, sentTo: event.email, reference: event.reference ?? '', phase: 'success' };
    case 'pickedUp':
      return {
        ...state,
        settings: event.settings,
        hydrated: true,
        countryChosen: event.countryChosen,
        formData: event.data ?? state.formData,
        thumbnails: event.thumbnails ?? state.thumbnails,
      };
    case 'edited': {
      const countryChanged = event.data.country !== state.formData.country;
      return { ...state, formData: event.data, countryChosen: state.countryChosen || countryChanged };
    }
    case 'touched':
      return withTouched(state, event.names);
    case 'validated':
      return { ...state, errors: event.errors };
    case 'pressStarted':
      return state.pressing ? state : { ...state, pressing: true };
    case 'pressEnded':
      return state.pressing ? { ...state, pressing: false } : state;
    case 'announced':
      return { ...state, announcement: event.message };
    case 'thumbnailsSaved':
      return { ...state, thumbnails: event.thumbnails };
    case 'waitingForUploads':
      return { ...state, phase: 'submitting', announcement: event.message };
    case 'rejected':
      return {
        ...state,
        phase: 'editing',
        focusRequest: event.firstError ? { target: event.firstError } : state.focusRequest,
      };
    case 'sending':
      return { ...state, phase: 'submitting', announcement: event.message, attempt: event.attempt };
    case 'failed':
      return { ...state, phase: 'error', announcement: '', focusRequest: { target: 'notice' } };
    case 'sent':
      return { ...state, phase: 'success', sentTo: event.email, reference: event.reference ?? '', focusSuccess: true };
    default:
      return { ...state, uploads: reduceUploads(state.uploads, event) };
  }
}
