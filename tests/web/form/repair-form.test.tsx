// @vitest-environment jsdom
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { validData } from '../../core/form-rule-cases';
import { brands, renderForm, setMeta, storeDraft, stubFetch, submitCalls } from './helpers';

const submitButton = () => screen.getByRole('button', { name: 'Verzenden' });

describe('RepairForm: editing and when errors show', () => {
  it('renders the sections, labels and country of the route (nl)', () => {
    renderForm(brands.ilve, 'nl', 'be');
    expect(screen.getByRole('group', { name: 'Installatieadres' })).toBeTruthy();
    expect(screen.getByRole('group', { name: 'Apparaat' })).toBeTruthy();
    for (const label of ['Naam', 'Straatnaam', 'Huisnummer', 'Toevoeging', 'Postcode', 'Plaats', 'Land', 'E-mail', 'Telefoon', 'Mobiel', 'Merk', 'Type', 'Serienummer', 'Aankoopdatum', 'Klachtomschrijving', 'Foto van het typeplaatje', 'Foto van de aankoopbon']) {
      expect(screen.getByLabelText(label)).toBeTruthy();
    }
    const country = screen.getByLabelText('Land') as HTMLSelectElement;
    expect(country.value).toBe('be');
    // An empty first option, as a required select needs (HTML); then the countries, België with its diaeresis.
    expect([...country.options].map((o) => o.text)).toEqual(['Maak een keuze', 'België', 'Frankrijk', 'Nederland', 'Luxemburg']);
    expect(country.options[0].value).toBe('');
    const house = screen.getByLabelText('Huisnummer') as HTMLInputElement;
    expect(house.inputMode).toBe('numeric');
    expect(house.type).toBe('number');
    expect((screen.getByLabelText('Naam') as HTMLInputElement).autocomplete).toBe('name');
    expect((screen.getByLabelText('Postcode') as HTMLInputElement).autocomplete).toBe('postal-code');
    expect(screen.getByRole('button', { name: 'Verzenden' }).closest('form')!.noValidate).toBe(true);
    // The simple form lets max-length messages show; no maxLength attribute.
    expect((screen.getByLabelText('Naam') as HTMLInputElement).maxLength).toBe(-1);
  });

  it('renders French labels and texts on French pages', () => {
    renderForm(brands.teka, 'fr', 'be');
    expect(screen.getByRole('group', { name: "Adresse d'installation" })).toBeTruthy();
    expect(screen.getByLabelText('Nom')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'politique de confidentialité' }).getAttribute('href')).toBe(
      'https://www.example.com/teka/be-fr/politique-de-confidentialite',
    );
    expect(screen.getByRole('button', { name: 'Envoyer' })).toBeTruthy();
  });

  it('validates on blur, not on each keystroke, and only touched fields', async () => {
    const { user } = renderForm(brands.ilve);
    const postal = screen.getByLabelText('Postcode');
    await user.type(postal, '0000');
    expect(screen.queryByText('Ongeldige postcode')).toBeNull();
    await user.tab();
    expect(screen.getByText('Ongeldige postcode')).toBeTruthy();
    expect(postal.getAttribute('aria-invalid')).toBe('true');
    expect(postal.getAttribute('aria-describedby')).toBe(screen.getByText('Ongeldige postcode').parentElement!.id);
    // Untouched required fields stay quiet.
    expect(screen.queryByText('Dit veld is verplicht')).toBeNull();
    // Fixing while typing does not clear the message until the field is left.
    await user.clear(postal);
    await user.type(postal, '1118CP');
    expect(screen.getByText('Ongeldige postcode')).toBeTruthy();
    await user.tab();
    expect(screen.queryByText('Ongeldige postcode')).toBeNull();
    expect(postal.getAttribute('aria-invalid')).toBeNull();
  });

  it('re-validates the postal code when the country changes', async () => {
    const { user } = renderForm(brands.ilve, 'nl', 'be');
    await user.type(screen.getByLabelText('Postcode'), '1000');
    await user.tab();
    expect(screen.queryByText('Ongeldige postcode')).toBeNull();
    await user.selectOptions(screen.getByLabelText('Land'), 'nl');
    expect(screen.getByText('Ongeldige postcode')).toBeTruthy();
    await user.selectOptions(screen.getByLabelText('Land'), 'fr');
    expect(screen.queryByText('Ongeldige postcode')).toBeNull();
  });

  it('answers a name of only spaces with the required message, as the server does', async () => {
    const { user } = renderForm(brands.ilve);
    const name = screen.getByLabelText('Naam');
    await user.type(name, '    ');
    await user.tab();
    expect(screen.getByText('Dit veld is verplicht')).toBeTruthy();
    expect(name.getAttribute('aria-invalid')).toBe('true');
  });

  it('shows the simple form max-length message', async () => {
    const { user } = renderForm(brands.ilve);
    await user.type(screen.getByLabelText('Toevoeging'), 'x'.repeat(11));
    await user.tab();
    expect(screen.getByText('Maximaal 10 tekens toegestaan')).toBeTruthy();
  });

  it('extended inputs stop at their limit', async () => {
    const { user } = renderForm(brands.kuppersbusch);
    const suffix = screen.getByLabelText('Toevoeging') as HTMLInputElement;
    expect(suffix.maxLength).toBe(10);
    await user.type(suffix, 'x'.repeat(12));
    expect(suffix.value).toHaveLength(10);
  });

  it('house number: out of range and empty', async () => {
    const { user } = renderForm(brands.ilve);
    const house = screen.getByLabelText('Huisnummer');
    await user.type(house, '100000');
    await user.tab();
    expect(within(house.parentElement!).getByText('Invalid number')).toBeTruthy();
    await user.clear(house);
    await user.tab();
    expect(within(house.parentElement!).getByText('Dit veld is verplicht')).toBeTruthy();
  });

  it('Hanant offers the two brands; the choice validates on change', async () => {
    const { user } = renderForm(brands.hanant);
    const brand = screen.getByLabelText('Merk') as HTMLSelectElement;
    expect([...brand.options].map((o) => o.text)).toEqual(['Maak een keuze', 'Hananto', 'Senza Nome']);
    await user.selectOptions(brand, 'Senza Nome');
    await user.selectOptions(brand, '');
    expect(within(brand.parentElement!).getByText('Dit veld is verplicht')).toBeTruthy();
  });
});

describe('RepairForm: submit', () => {
  it('simple form: submit marks all touched, shows every error and focuses the first field', async () => {
    const fetch = stubFetch([{ ok: true, status: 201 }]);
    const { user } = renderForm(brands.ilve);
    await user.click(submitButton());
    expect(screen.getAllByText('Dit veld is verplicht').length).toBeGreaterThanOrEqual(13);
    expect(document.activeElement).toBe(screen.getByLabelText('Naam'));
    expect(screen.queryByText('Eén of meerdere velden zijn niet juist ingevuld.')).toBeNull();
    expect(fetch).not.toHaveBeenCalled();
  });

  it('extended form: focus goes to the first field in error; the summary links focus each field', async () => {
    const { user } = renderForm(brands.kuppersbusch);
    await user.click(submitButton());
    const summary = screen.getByRole('heading', { name: 'Eén of meerdere velden zijn niet juist ingevuld.' }).parentElement!;
    expect(document.activeElement).toBe(screen.getByLabelText('Naam'));
    const links = within(summary).getAllByRole('link');
    expect(links[0].textContent).toBe('Naam: This field is required');
    await user.click(within(summary).getByRole('link', { name: /^Postcode/ }));
    expect(document.activeElement).toBe(screen.getByLabelText('Postcode'));
    await user.click(within(summary).getByRole('link', { name: 'Akkoord met het privacybeleid: This field is required' }));
    expect(document.activeElement).toBe(screen.getByRole('checkbox'));
  });

  it('extended form: the panel shows while any field has an error, also before submit (fr)', async () => {
    const { user } = renderForm(brands.teka, 'fr', 'be');
    expect((screen.getByRole('checkbox') as HTMLInputElement).checked).toBe(false);
    await user.click(screen.getByLabelText('Nom'));
    await user.click(document.body);
    expect(screen.getByText("Un ou plusieurs champs n'ont pas été renseignés correctement.")).toBeTruthy();
    await user.type(screen.getByLabelText('Nom'), 'Dupont');
    await user.click(document.body);
    expect(screen.queryByText("Un ou plusieurs champs n'ont pas été renseignés correctement.")).toBeNull();
  });

  it('sends the shaped request, shows the spinner meanwhile, then the confirmation', async () => {
    setMeta('portal:api-base', 'https://api.portal.test/');
    let release!: () => void;
    const fetch = vi.fn((url: string) =>
      url.includes('/api/forms/')
        ? new Promise((resolve) => (release = () => resolve({ ok: true, status: 201 })))
        : new Promise(() => {}),
    );
    vi.stubGlobal('fetch', fetch);
    storeDraft('kuppersbusch', { ...validData('extended'), notification: 'dealer@example.com' });
    const { user } = renderForm(brands.kuppersbusch, 'nl', 'nl');
    expect(await screen.findByDisplayValue('Jan Jansen')).toBeTruthy();
    await user.click(submitButton());
    expect((submitButton() as HTMLButtonElement).disabled).toBe(true);
    expect(submitButton().querySelector('.spinner')).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe('Bezig met verzenden…');
    const [url, init] = fetch.mock.calls.find(([u]) => u.includes('/api/forms/')) as unknown as [string, RequestInit];
    expect(url).toBe('https://api.portal.test/api/forms/kuppersbusch');
    const headers = init.headers as Record<string, string>;
    expect(headers['Content-Type']).toBe('application/json');
    expect(headers.Accept).toBe('application/json');
    expect(headers['X-Portal-Locale']).toBe('nl');
    expect(headers['Idempotency-Key']).toMatch(/^[0-9a-f-]{36}$/);
    const body = JSON.parse(String(init.body));
    expect(body.brand).toBe('Kuppersbusch');
    expect(body.language).toBe('nl');
    expect(body.isAkkoord).toBe(true);
    expect(body.notification).toBe('dealer@example.com');
    expect(body).not.toHaveProperty('upload_1');
    await act(async () => release());
    const heading = screen.getByRole('heading', { name: 'Aanvraag ontvangen' });
    expect(document.activeElement).toBe(heading);
    expect(screen.getByText('Wij hebben uw aanvraag ontvangen en nemen contact met u op voor het maken van een afspraak.')).toBeTruthy();
    expect(screen.getByText('Een bevestiging is verstuurd naar', { exact: false }).textContent).toBe(
      'Een bevestiging is verstuurd naar jan@example.com',
    );
    expect(screen.queryByRole('button', { name: 'Verzenden' })).toBeNull();
    expect(sessionStorage.getItem('repair-portal:draft:kuppersbusch')).toBeNull();
    setMeta('portal:api-base', '');
  });

  it('shows the reference the server answered, under the heading that takes the focus and is described by it', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) =>
        url.includes('/api/forms/')
          ? ({ ok: true, status: 201, json: async () => ({ reference: 'K7QM-4XRT-9P' }) } as unknown as Response)
          : ({ ok: true, status: 200, json: async () => ({ response: { docs: [] } }) } as unknown as Response),
      ),
    );
    storeDraft('ilve', validData('simple'));
    const { user } = renderForm(brands.ilve, 'nl', 'nl');
    expect(await screen.findByDisplayValue('Jan Jansen')).toBeTruthy();
    await user.click(submitButton());
    const heading = await screen.findByRole('heading', { name: 'Aanvraag ontvangen' });
    expect(document.activeElement).toBe(heading);
    expect(heading.getAttribute('aria-describedby')).toBe('success-reference');
    const reference = document.getElementById('success-reference')!;
    expect(reference.textContent).toBe('Uw referentie K7QM-4XRT-9P');
    expect(screen.getByText('K7QM-4XRT-9P').textContent).toBe('K7QM-4XRT-9P');
    // A reload in the same session shows it again.
    expect(JSON.parse(sessionStorage.getItem('repair-portal:sent:ilve')!)).toEqual({ email: 'jan@example.com', reference: 'K7QM-4XRT-9P' });
  });

  it('after success a reload in the same session shows the reference it was given (fr)', async () => {
    sessionStorage.setItem('repair-portal:sent:teka', JSON.stringify({ email: 'a@example.com', reference: 'K7QM-4XRT-9P' }));
    renderForm(brands.teka, 'fr', 'be');
    expect(await screen.findByText('Votre référence')).toBeTruthy();
    expect(document.getElementById('success-reference')?.textContent).toBe('Votre référence K7QM-4XRT-9P');
  });

  it('after success a reload in the same session shows the confirmation, not the form (fr)', async () => {
    sessionStorage.setItem('repair-portal:sent:teka', JSON.stringify({ email: 'a@example.com' }));
    renderForm(brands.teka, 'fr', 'be');
    expect(await screen.findByText('Nous avons reçu votre demande et vous contacterons pour prendre rendez-vous.')).toBeTruthy();
    expect(screen.getByText('Une confirmation a été envoyée à', { exact: false }).textContent).toContain('a@example.com');
    expect(screen.queryByRole('button', { name: 'Envoyer' })).toBeNull();
    // Kept before references were shown: no reference, nothing in its place.
    expect(screen.queryByText('Votre référence', { exact: false })).toBeNull();
    expect(screen.getByRole('heading', { name: 'Demande reçue' }).hasAttribute('aria-describedby')).toBe(false);
  });

  it('a failed submit keeps the values, says so, and a retry reuses the idempotency key', async () => {
    const fetch = stubFetch([{ ok: false, status: 500 }, new TypeError('offline'), { ok: true, status: 200 }]);
    storeDraft('ilve', validData('simple'));
    const { user } = renderForm(brands.ilve, 'nl', 'nl');
    expect(await screen.findByDisplayValue('Jan Jansen')).toBeTruthy();
    await user.click(submitButton());
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('Er is een fout opgetreden, probeer het opnieuw.');
    expect(document.activeElement).toBe(alert);
    expect((screen.getByLabelText('Naam') as HTMLInputElement).value).toBe('Jan Jansen');
    expect((submitButton() as HTMLButtonElement).disabled).toBe(false);
    await user.click(submitButton());
    expect((await screen.findByRole('alert')).textContent).toBe('Er is een fout opgetreden, probeer het opnieuw.');
    await user.click(submitButton());
    expect(await screen.findByRole('heading', { name: 'Aanvraag ontvangen' })).toBeTruthy();
    expect(submitCalls(fetch)).toHaveLength(3);
    const keys = submitCalls(fetch).map(([, init]) => (init.headers as Record<string, string>)['Idempotency-Key']);
    expect(new Set(keys).size).toBe(1);
    const body = JSON.parse(String(submitCalls(fetch)[0][1].body));
    expect(Object.keys(body).sort()).toEqual(
      ['last_name', 'street_name', 'house_number', 'postal_code', 'city', 'country', 'client_email', 'phone_number', 'brand', 'type', 'serial_number', 'purchase_date', 'description', 'image1', 'image2'].sort(),
    );
  });

  it('a 422 naming a photo the server no longer holds marks that picker "choose this photo again", not the error notice, and sends nothing until it is chosen again', async () => {
    const fetch = stubFetch([{ ok: false, status: 422, body: { error: 'A photo is unknown', photos: ['image1'] } }]);
    storeDraft('ilve', validData('simple'));
    const { user } = renderForm(brands.ilve, 'nl', 'nl');
    expect(await screen.findByDisplayValue('Jan Jansen')).toBeTruthy();
    await user.click(submitButton());
    const picker = screen.getByLabelText('Foto van het typeplaatje');
    const chooseAgain = 'Deze foto is niet meer bij ons bewaard. Kies de foto opnieuw.';
    // Said beside the picker, which it describes (and announced).
    await waitFor(() => expect((picker.getAttribute('aria-describedby') ?? '').split(' ').map((id) => document.getElementById(id)?.textContent)).toContain(chooseAgain));
    expect(screen.queryByText('Er is een fout opgetreden, probeer het opnieuw.')).toBeNull();
    expect(document.activeElement).toBe(picker);
    expect(picker.getAttribute('aria-invalid')).toBe('true');
    // The name the server no longer knows is not kept: not in the draft, not sent again.
    expect(JSON.parse(sessionStorage.getItem('repair-portal:draft:ilve') ?? '{}')).not.toHaveProperty('image1');
    await user.click(submitButton());
    expect(submitCalls(fetch)).toHaveLength(1);
  });

  it('French error notice', async () => {
    stubFetch([{ ok: false, status: 502 }]);
    storeDraft('teka', { ...validData('extended'), country: 'be', postal_code: '1000' });
    const { user } = renderForm(brands.teka, 'fr', 'be');
    expect(await screen.findByDisplayValue('Jan Jansen')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Envoyer' }));
    expect((await screen.findByRole('alert')).textContent).toBe("Une erreur s'est produite, veuillez réessayer.");
  });
});

describe('RepairForm: draft', () => {
  it('keeps typed values and restores them after a reload', async () => {
    const first = renderForm(brands.fratelli);
    await first.user.type(screen.getByLabelText('Naam'), 'Piet');
    await first.user.type(screen.getByLabelText('Klachtomschrijving'), 'Lekt');
    first.unmount();
    renderForm(brands.fratelli);
    expect(await screen.findByDisplayValue('Piet')).toBeTruthy();
    expect(screen.getByDisplayValue('Lekt')).toBeTruthy();
  });

  it('a restored draft keeps a country the customer chose, not an old route\'s default', async () => {
    const first = renderForm(brands.ilve, 'nl', 'nl');
    await first.user.type(screen.getByLabelText('Naam'), 'Piet');
    first.unmount();
    // Typed on /nl, reloaded on /be: the Dutch default does not follow.
    renderForm(brands.ilve, 'nl', 'be');
    expect(await screen.findByDisplayValue('Piet')).toBeTruthy();
    expect((screen.getByLabelText('Land') as HTMLSelectElement).value).toBe('be');
    cleanup();

    const chosen = renderForm(brands.ilve, 'nl', 'nl');
    await chosen.user.selectOptions(screen.getByLabelText('Land'), 'lu');
    chosen.unmount();
    renderForm(brands.ilve, 'nl', 'be');
    expect(await screen.findByDisplayValue('Piet')).toBeTruthy();
    expect((screen.getByLabelText('Land') as HTMLSelectElement).value).toBe('lu');
  });

  it('restores uploaded file names (not the files)', async () => {
    storeDraft('airodesign', validData('simple'));
    renderForm(brands.airodesign);
    expect(await screen.findByText('plaatje.jpg')).toBeTruthy();
    expect(screen.getByText('bon.png')).toBeTruthy();
    const saved = JSON.parse(sessionStorage.getItem('repair-portal:draft:airodesign')!);
    expect(saved.image1).toBe('a1b2c3.jpg');
  });
});

describe('RepairForm: a whole number', () => {
  it('sends the house number typed as a number, a word as the form’s own error, and never builds a number format on the way', async () => {
    // rjsf asks Intl.NumberFormat for a decimal separator on every render of a number; the first costs a phone a long task.
    const numberFormat = vi.spyOn(Intl, 'NumberFormat');
    const fetch = stubFetch([{ ok: true, status: 201 }]);
    storeDraft('ilve', { ...validData('simple'), house_number: undefined });
    const { user } = renderForm(brands.ilve, 'nl', 'nl');
    expect(await screen.findByDisplayValue('Jan Jansen')).toBeTruthy();
    const house = screen.getByLabelText('Huisnummer') as HTMLInputElement;
    await user.type(house, 'twaalf');
    await user.click(submitButton());
    expect(submitCalls(fetch)).toHaveLength(0);
    expect(house.getAttribute('aria-invalid')).toBe('true');
    await user.clear(house);
    await user.type(house, '12');
    await user.click(submitButton());
    expect(await screen.findByRole('heading', { name: 'Aanvraag ontvangen' })).toBeTruthy();
    expect(JSON.parse(String(submitCalls(fetch)[0][1].body)).house_number).toBe(12);
    expect(numberFormat).not.toHaveBeenCalled();
    numberFormat.mockRestore();
  });
});
