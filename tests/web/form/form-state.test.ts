import { describe, expect, it } from 'vitest';
import { attemptFor, formReducer, initialFormState, type FormEvent, type FormState } from '../../../src/web/form/form-state';

const settings = { apiBase: 'https://portal.example', addressLookupUrl: 'https://lookup.example' };
const start = () => initialFormState({ formData: { country: 'nl' } });
const run = (state: FormState, ...events: FormEvent[]) => events.reduce(formReducer, state);

describe('form state: phases (spec section 4)', () => {
  it('starts editing, or in success when the server already sent the request', () => {
    expect(start().phase).toBe('editing');
    const sent = initialFormState({ formData: { country: 'nl' }, sentTo: 'a@b.nl' });
    expect(sent).toMatchObject({ phase: 'success', sentTo: 'a@b.nl', focusSuccess: false });
  });

  it('goes editing → submitting → success, and the success panel takes focus', () => {
    const attempt = attemptFor(null, '{"a":1}', 'key-1');
    const sending = run(start(), { type: 'sending', attempt, message: 'Sending' });
    expect(sending).toMatchObject({ phase: 'submitting', announcement: 'Sending', attempt });
    expect(run(sending, { type: 'sent', email: 'a@b.nl' })).toMatchObject({
      phase: 'success',
      sentTo: 'a@b.nl',
      focusSuccess: true,
    });
  });

  it('goes submitting → error on a network failure: the notice takes focus, the data stays', () => {
    const edited = run(start(), { type: 'edited', data: { country: 'nl', last_name: 'Jansen' } });
    const failed = run(edited, { type: 'sending', attempt: attemptFor(null, 'x', 'k'), message: 'Sending' }, { type: 'failed' });
    expect(failed).toMatchObject({ phase: 'error', announcement: '', focusRequest: { target: 'notice' } });
    expect(failed.formData).toEqual({ country: 'nl', last_name: 'Jansen' });
  });

  it('asks again for focus on each failure (a new request each time)', () => {
    const once = run(start(), { type: 'failed' });
    const twice = run(once, { type: 'failed' });
    expect(twice.focusRequest).toEqual(once.focusRequest);
    expect(twice.focusRequest).not.toBe(once.focusRequest);
  });

  it('returns from a retry to editing when the form has errors, focusing the first', () => {
    const waiting = run(start(), { type: 'failed' }, { type: 'waitingForUploads', message: 'Waiting' });
    expect(waiting).toMatchObject({ phase: 'submitting', announcement: 'Waiting' });
    expect(run(waiting, { type: 'rejected', firstError: 'last_name' })).toMatchObject({
      phase: 'editing',
      focusRequest: { target: 'last_name' },
    });
  });

  it('finds a request sent before a reload in success, with the runtime settings', () => {
    expect(run(start(), { type: 'sentFound', email: 'a@b.nl', settings })).toMatchObject({
      phase: 'success',
      sentTo: 'a@b.nl',
      hydrated: true,
      focusSuccess: false,
      settings,
    });
  });
});

describe('form state: touched fields', () => {
  it('marks a field touched on blur, once', () => {
    const blurred = run(start(), { type: 'touched', names: ['last_name'] });
    expect([...blurred.touched]).toEqual(['last_name']);
    // Touching it again changes nothing, not even the state's identity (no re-render).
    expect(formReducer(blurred, { type: 'touched', names: ['last_name'] })).toBe(blurred);
  });

  it('marks every field touched on submit', () => {
    const all = ['last_name', 'city', 'upload_1'];
    const submitted = run(start(), { type: 'touched', names: ['city'] }, { type: 'touched', names: all });
    expect([...submitted.touched].sort()).toEqual([...all].sort());
  });

  it('starts with every field touched and the server errors after a post without scripts', () => {
    const seeded = initialFormState({ formData: { country: 'nl' }, touched: ['city'], errors: { city: ['Required'] } });
    expect([...seeded.touched]).toEqual(['city']);
    expect(seeded.errors).toEqual({ city: ['Required'] });
  });

  it('keeps the errors a validation found', () => {
    expect(run(start(), { type: 'validated', errors: { city: ['Dit veld is verplicht'] } }).errors).toEqual({
      city: ['Dit veld is verplicht'],
    });
  });
});

describe('form state: the errors shown, held while a pointer presses', () => {
  const required = { city: ['Dit veld is verplicht'] };

  it('shows the errors of touched fields only', () => {
    const found = run(start(), { type: 'validated', errors: { ...required, last_name: ['Dit veld is verplicht'] } });
    expect(found.shownErrors).toEqual({});
    expect(run(found, { type: 'touched', names: ['city'] }).shownErrors).toEqual(required);
  });

  it('holds them from the press to its end, then shows what was found meanwhile', () => {
    const shown = run(start(), { type: 'touched', names: ['city'] }, { type: 'validated', errors: required });
    const pressed = run(shown, { type: 'pressStarted' });
    // The press's mousedown blurs a field: touched and validated now, shown after the click.
    const blurred = run(pressed, { type: 'touched', names: ['last_name'] }, { type: 'validated', errors: { last_name: ['Dit veld is verplicht'] } });
    expect(blurred.errors).toEqual({ last_name: ['Dit veld is verplicht'] });
    expect(blurred.shownErrors).toBe(shown.shownErrors);
    expect(run(blurred, { type: 'pressEnded' }).shownErrors).toEqual({ last_name: ['Dit veld is verplicht'] });
  });

  it('a rejected submit shows every error at once, even inside the press that made its click', () => {
    const pressed = run(start(), { type: 'pressStarted' }, { type: 'touched', names: ['city'] }, { type: 'validated', errors: required });
    expect(pressed.shownErrors).toEqual({});
    expect(run(pressed, { type: 'rejected', firstError: 'city' })).toMatchObject({ shownErrors: required, focusRequest: { target: 'city' } });
  });

  it('keeps the shown errors’ identity when a validation finds the same (no re-render)', () => {
    const shown = run(start(), { type: 'touched', names: ['city'] }, { type: 'validated', errors: required });
    expect(run(shown, { type: 'validated', errors: { city: ['Dit veld is verplicht'] } }).shownErrors).toBe(shown.shownErrors);
  });

  it('a second press start or an end without a press changes nothing', () => {
    const pressed = run(start(), { type: 'pressStarted' });
    expect(formReducer(pressed, { type: 'pressStarted' })).toBe(pressed);
    const idle = start();
    expect(formReducer(idle, { type: 'pressEnded' })).toBe(idle);
  });

  it('a page seeded by a post without scripts shows its errors from the start', () => {
    const seeded = initialFormState({ formData: { country: 'nl' }, touched: ['city'], errors: required });
    expect(seeded.shownErrors).toEqual(required);
  });
});

describe('form state: data, country choice and pick-up', () => {
  it('counts a changed country as the customer’s choice, other edits not', () => {
    const typed = run(start(), { type: 'edited', data: { country: 'nl', city: 'Utrecht' } });
    expect(typed.countryChosen).toBe(false);
    expect(run(typed, { type: 'edited', data: { country: 'be', city: 'Utrecht' } }).countryChosen).toBe(true);
  });

  it('picks up the draft after hydration: its data, thumbnails and settings', () => {
    const thumbnails = { upload_1: { name: 'a.jpg', url: 'data:image/jpeg;base64,AA' } };
    const picked = run(start(), {
      type: 'pickedUp',
      settings,
      countryChosen: true,
      data: { country: 'be', city: 'Gent' },
      thumbnails,
    });
    expect(picked).toMatchObject({ hydrated: true, countryChosen: true, settings, thumbnails });
    expect(picked.formData).toEqual({ country: 'be', city: 'Gent' });
  });

  it('keeps what the page started with when there is nothing to pick up', () => {
    const picked = run(start(), { type: 'pickedUp', settings, countryChosen: false });
    expect(picked.formData).toEqual({ country: 'nl' });
    expect(picked.thumbnails).toEqual({});
  });
});

describe('form state: uploads', () => {
  it('goes uploading → done, with progress on the way', () => {
    const started = run(start(), { type: 'uploadStarted', field: 'upload_1', fileName: 'a.jpg', previewUrl: 'blob:1' });
    expect(started.uploads.upload_1).toEqual({ status: 'uploading', percent: 0, fileName: 'a.jpg', previewUrl: 'blob:1' });
    const halfway = run(started, { type: 'uploadProgressed', field: 'upload_1', percent: 50 });
    expect(halfway.uploads.upload_1).toMatchObject({ status: 'uploading', percent: 50 });
    expect(run(halfway, { type: 'uploadDone', field: 'upload_1' }).uploads.upload_1).toEqual({
      status: 'done',
      percent: 100,
      fileName: 'a.jpg',
      previewUrl: 'blob:1',
    });
  });

  it('goes uploading → error, keeping the file name shown', () => {
    const failed = run(
      start(),
      { type: 'uploadStarted', field: 'upload_2', fileName: 'b.png' },
      { type: 'uploadFailed', field: 'upload_2' },
    );
    expect(failed.uploads.upload_2).toMatchObject({ status: 'error', fileName: 'b.png' });
  });

  it('shows a refused file by name, not uploading', () => {
    const refused = run(start(), { type: 'uploadRefused', field: 'upload_1', fileName: 'doc.pdf' });
    expect(refused.uploads.upload_1).toEqual({ status: 'invalid', percent: 0, fileName: 'doc.pdf', previewUrl: undefined });
  });

  it('keeps each picker’s upload apart', () => {
    const both = run(
      start(),
      { type: 'uploadStarted', field: 'upload_1', fileName: 'a.jpg' },
      { type: 'uploadRefused', field: 'upload_2', fileName: 'doc.pdf' },
    );
    expect(both.uploads.upload_1.status).toBe('uploading');
    expect(both.uploads.upload_2.status).toBe('invalid');
  });
});

describe('attemptFor: one idempotency key per series of sends with the same body', () => {
  it('keeps the key while the body is the same, takes a new one when it changes', () => {
    const first = attemptFor(null, 'body-1', 'k1');
    expect(first).toEqual({ key: 'k1', body: 'body-1' });
    expect(attemptFor(first, 'body-1', 'k2')).toBe(first);
    expect(attemptFor(first, 'body-2', 'k3')).toEqual({ key: 'k3', body: 'body-2' });
  });
});
