// @vitest-environment jsdom
import { act, fireEvent, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { validData } from '../../../../core/form-rule-cases';
import { brands, FakeXhr, photo, renderForm, setMeta, storeDraft, stubFetch, submitCalls } from '../../helpers';

beforeEach(() => {
  FakeXhr.install();
  vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:thumb'), revokeObjectURL: vi.fn() }));
});

describe.each([
  ['nl', 'Foto van het typeplaatje', 'Uploaden: 40%', 'plaatje.jpg is geüpload.'],
  ['fr', 'Photo de la plaque signalétique', 'Envoi : 40 %', 'plaatje.jpg a été envoyée.'],
] as const)('photo upload (%s)', (locale, label, progressText, doneText) => {
  it('uploads at once with progress, stores the file name and shows name and thumbnail', async () => {
    setMeta('portal:api-base', 'https://api.portal.test');
    const { user } = renderForm(brands.ilve, locale);
    const input = screen.getByLabelText(label) as HTMLInputElement;
    expect(input.accept).toBe('image/png,image/jpeg');
    await user.upload(input, photo());
    const xhr = await FakeXhr.sent(0);
    expect(xhr.method).toBe('POST');
    expect(xhr.url).toBe('https://api.portal.test/api/forms/images');
    expect(xhr.headers.Accept).toBe('application/json');
    expect((xhr.body as FormData).get('image')).toBeInstanceOf(File);
    act(() => xhr.progress(40, 100));
    const bar = screen.getByLabelText(progressText) as HTMLProgressElement;
    expect(bar.value).toBe(40);
    expect(screen.getByText('plaatje.jpg')).toBeTruthy();
    expect(document.querySelector('img.photo__thumb')!.getAttribute('src')).toBe('blob:thumb');
    await act(async () => xhr.respond(201, { filename: 'abc123.jpg' }));
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(screen.getByRole('status').textContent).toBe(doneText);
    const draft = JSON.parse(sessionStorage.getItem('repair-portal:draft:ilve')!);
    expect(draft.image1).toBe('abc123.jpg');
    expect(draft.upload_1).toEqual({ name: 'plaatje.jpg', size: 1000, type: 'image/jpeg' });
    setMeta('portal:api-base', '');
  });

  it("says 'Netwerk error!' below the picker on failure and lets the user choose again", async () => {
    const { user } = renderForm(brands.ilve, locale);
    const input = screen.getByLabelText(label) as HTMLInputElement;
    await user.upload(input, photo());
    const xhr0_ = await FakeXhr.sent(0);
    await act(async () => xhr0_.fail());
    const field = input.closest('.field')!;
    expect(within(field as HTMLElement).getByText('Netwerk error!')).toBeTruthy();
    expect(input.getAttribute('aria-invalid')).toBe('true');
    await user.upload(input, photo('tweede.png', 'image/png'));
    const xhr1_ = await FakeXhr.sent(1);
    await act(async () => xhr1_.respond(200, { filename: 'second.png' }));
    expect(within(field as HTMLElement).queryByText('Netwerk error!')).toBeNull();
    expect(screen.getByText('tweede.png')).toBeTruthy();
  });
});

describe('retry after a network error', () => {
  it('sends the same photo again without choosing it again', async () => {
    const { user } = renderForm(brands.ilve, 'nl');
    const input = screen.getByLabelText('Foto van het typeplaatje') as HTMLInputElement;
    const chosen = photo('plaatje.jpg');
    await user.upload(input, chosen);
    const first = await FakeXhr.sent(0);
    await act(async () => first.fail());
    await user.click(screen.getByRole('button', { name: 'Opnieuw proberen' }));
    const second = await FakeXhr.sent(1);
    const resent = (second.body as FormData).get('image') as File;
    expect([resent.name, resent.type]).toEqual([chosen.name, chosen.type]);
    await act(async () => second.respond(201, { filename: 'retried.jpg' }));
    expect(screen.queryByText('Netwerk error!')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Opnieuw proberen' })).toBeNull();
    expect(JSON.parse(sessionStorage.getItem('repair-portal:draft:ilve')!).image1).toBe('retried.jpg');
  });
});

describe('photo rules before upload', () => {
  it('refuses a file over 32 MB without uploading it', async () => {
    const { user } = renderForm(brands.ilve);
    const input = screen.getByLabelText('Foto van het typeplaatje');
    await user.upload(input, photo('groot.jpg', 'image/jpeg', 33554433));
    expect(screen.getByText('File too large')).toBeTruthy();
    expect(FakeXhr.all).toHaveLength(0);
  });

  it('refuses a file of another type (the picker filter can be bypassed)', async () => {
    renderForm(brands.kuppersbusch, 'fr', 'be');
    const input = screen.getByLabelText("Photo de la preuve d'achat");
    fireEvent.change(input, { target: { files: [photo('anim.gif', 'image/gif')] } });
    expect(screen.getByText('Type de fichier non valide')).toBeTruthy();
    expect(FakeXhr.all).toHaveLength(0);
  });

  it('a server error (5xx) is a failure to try again', async () => {
    const { user } = renderForm(brands.ilve);
    const input = screen.getByLabelText('Foto van de aankoopbon');
    await user.upload(input, photo());
    const xhr0_ = await FakeXhr.sent(0);
    await act(async () => xhr0_.respond(503, { error: 'Storage is unavailable' }));
    expect(within(input.closest('.field') as HTMLElement).getByText('Netwerk error!')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Opnieuw proberen' })).toBeTruthy();
  });
});

describe('no room for photos', () => {
  it.each([
    ['ilve', 'nl', 'Foto van de aankoopbon', 'Opnieuw proberen'],
    ['fratelli', 'fr', "Photo de la preuve d'achat", 'Réessayer'],
  ] as const)('%s %s: says what the server said, in the page\'s language it asked for, with a retry', async (brandId, locale, label, retry) => {
    const { user } = renderForm(brands[brandId], locale, locale === 'nl' ? 'nl' : 'be');
    const input = screen.getByLabelText(label);
    await user.upload(input, photo());
    const xhr = await FakeXhr.sent(0);
    expect(xhr.headers['X-Portal-Locale']).toBe(locale);
    const said = `server text (${locale}): no room, try again in 27 minutes`;
    await act(async () => xhr.respond(503, { error: said, refusal: 'noRoom' }));
    const field = input.closest('.field') as HTMLElement;
    expect(within(field).getByText(said)).toBeTruthy();
    expect(within(field).queryByText('Netwerk error!')).toBeNull();
    expect(within(field).getByRole('button', { name: retry })).toBeTruthy();
    expect(input.getAttribute('aria-invalid')).toBe('true');
  });
});

describe('a photo the server refuses', () => {
  // What the server says of a PDF renamed .jpg (415) and of a file past its limit (413): the page's own messages.
  it.each([
    ['ilve', 'nl', 415, 'Foto van het typeplaatje', 'Invalid file type'],
    ['ilve', 'nl', 413, 'Foto van het typeplaatje', 'File too large'],
    ['fratelli', 'fr', 415, 'Photo de la plaque signalétique', 'Type de fichier non valide'],
    ['kuppersbusch', 'fr', 413, 'Photo de la plaque signalétique', 'Fichier trop volumineux'],
  ] as const)('%s %s: %i on "%s" says "%s" as the page\'s own check does, with no retry and no thumbnail', async (brandId, locale, status, label, message) => {
    const { user } = renderForm(brands[brandId], locale, 'be');
    const other = screen.getAllByLabelText(/^Photo|^Foto/).find((el) => el !== screen.getByLabelText(label))!;
    await user.upload(other, photo('bon.png', 'image/png'));
    await act(async () => (await FakeXhr.sent(0)).respond(201, { filename: 'bon-1.png' }));
    await user.type(screen.getByLabelText(locale === 'nl' ? 'Naam' : 'Nom'), 'Dupont');

    const input = screen.getByLabelText(label) as HTMLInputElement;
    await user.upload(input, photo('rapport.jpg'));
    const refused = await FakeXhr.sent(1);
    await act(async () => refused.respond(status, { error: status === 415 ? 'The file is not a JPEG or PNG image.' : 'The file is larger than 32 MB.' }));

    const field = input.closest('.field') as HTMLElement;
    expect(within(field).getByText(message)).toBeTruthy();
    expect(within(field).queryByText('Netwerk error!')).toBeNull();
    expect(within(field).queryByRole('button')).toBeNull();
    expect(field.querySelector('img')).toBeNull();
    expect(within(field).getByText('rapport.jpg')).toBeTruthy();
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(input.getAttribute('aria-describedby')?.split(' ')).toContain(`${input.id}__error`);
    // What was typed and the other photo stay.
    expect((screen.getByLabelText(locale === 'nl' ? 'Naam' : 'Nom') as HTMLInputElement).value).toBe('Dupont');
    expect(within(other.closest('.field') as HTMLElement).getByText('bon.png')).toBeTruthy();
    expect(other.closest('.field')!.querySelector('img.photo__thumb')).not.toBeNull();
    expect(FakeXhr.all).toHaveLength(2);

    // Another photo, accepted, clears the message.
    await user.upload(input, photo('plaatje.jpg'));
    await act(async () => (await FakeXhr.sent(2)).respond(201, { filename: 'plaatje-1.jpg' }));
    expect(within(field).queryByText(message)).toBeNull();
    expect(input.getAttribute('aria-invalid')).toBeNull();
  });
});

describe('submitting while a photo uploads', () => {
  it('waits for the upload and sends the stored file name', async () => {
    const fetch = stubFetch([{ ok: true, status: 201 }]);
    const draft = validData('simple');
    delete draft.image2;
    delete draft.upload_2;
    storeDraft('ilve', draft);
    const { user } = renderForm(brands.ilve);
    expect(await screen.findByDisplayValue('Jan Jansen')).toBeTruthy();
    await user.upload(screen.getByLabelText('Foto van de aankoopbon'), photo('bon.png', 'image/png'));
    await user.click(screen.getByRole('button', { name: 'Verzenden' }));
    expect(screen.getByRole('status').textContent).toBe("Even geduld: de foto's worden nog geüpload.");
    expect(submitCalls(fetch)).toHaveLength(0);
    const xhr0_ = await FakeXhr.sent(0);
    await act(async () => xhr0_.respond(201, { filename: 'bon-123.png' }));
    expect(await screen.findByRole('heading', { name: 'Aanvraag ontvangen' })).toBeTruthy();
    const body = JSON.parse(String(submitCalls(fetch)[0][1].body));
    expect(body.image2).toBe('bon-123.png');
  });

  it('never sends when the running upload fails', async () => {
    const fetch = stubFetch([{ ok: true, status: 201 }]);
    const draft = validData('simple');
    delete draft.image1;
    delete draft.upload_1;
    storeDraft('ilve', draft);
    const { user } = renderForm(brands.ilve);
    expect(await screen.findByDisplayValue('Jan Jansen')).toBeTruthy();
    await user.upload(screen.getByLabelText('Foto van het typeplaatje'), photo());
    await user.click(screen.getByRole('button', { name: 'Verzenden' }));
    const xhr0_ = await FakeXhr.sent(0);
    await act(async () => xhr0_.fail());
    const input = screen.getByLabelText('Foto van het typeplaatje');
    expect(within(input.closest('.field') as HTMLElement).getByText('Netwerk error!')).toBeTruthy();
    expect(submitCalls(fetch)).toHaveLength(0);
    expect(document.activeElement).toBe(screen.getByLabelText('Foto van het typeplaatje'));
  });
});
