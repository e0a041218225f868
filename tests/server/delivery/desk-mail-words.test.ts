import { describe, expect, it } from 'vitest';
import { formModel } from '../../../src/core/form-model';
import { indexLanguages } from '../../../src/core/texts';
import { composeDeskMail } from '../../../src/server/delivery/mail/desk-mail';
import { composeWebhook } from '../../../src/server/delivery/webhook/webhook-event';

/** A form of a brand owner's own: a required choice "Aandrijving" and the customer's address. */
const model = formModel(
  'garden',
  {
    $id: 'garden',
    type: 'object',
    required: ['drive'],
    properties: { mail: { type: 'string', role: 'customer-email' }, drive: { type: 'string', enum: ['accu', 'petrol'] }, width: { type: 'integer' } },
  },
  { 'ui:options': { sections: [{ id: 'a', fields: ['mail', 'drive', 'width'] }] } },
);
const languages = indexLanguages({
  nl: {
    fields: { mail: 'E-mail', drive: 'Aandrijving', width: 'Maaibreedte (cm)' },
    options: { drive: { accu: 'Accu', petrol: 'Benzine' } },
    mail: { desk: { subject: 'Aanvraag {{reference}}', intro: 'Nieuw', reference: 'Referentie', received: 'Ontvangen', customerLanguage: 'Taal', empty: '(leeg)', languages: { nl: 'Nederlands' } } },
  },
  de: { fields: { drive: 'Antrieb' }, options: { drive: { accu: 'Akku' } } },
});
const brand = { id: 'tuinco', name: 'Tuinco', form: 'garden', serviceDesk: { emails: ['desk@example.com'], language: 'nl' } };
const request = { mail: 'klant@example.com', drive: 'accu', width: 46 };

describe('a choice in what people read', () => {
  it('reads as the label the page offered in the desk’s mail, in the desk’s language', () => {
    const mail = composeDeskMail({ model, request, brand, locale: 'nl', reference: 'K7QM-4XRT-9P', receivedAt: 0, timeZone: 'Europe/Amsterdam', languages });
    expect(mail.text).toMatch(/^Aandrijving: Accu$/m);
    expect(mail.text).not.toMatch(/accu/);
    expect(mail.text).toMatch(/^Maaibreedte \(cm\): 46$/m);
    const german = composeDeskMail({ model, request, brand: { ...brand, serviceDesk: { ...brand.serviceDesk, language: 'de' } }, locale: 'nl', reference: 'K7QM-4XRT-9P', receivedAt: 0, timeZone: 'Europe/Amsterdam', languages });
    expect(german.text).toMatch(/^Antrieb: Akku$/m);
  });

  it('stays the code in the webhook, for the receiving system', () => {
    const hook = composeWebhook(model, request, { ...brand, serviceDesk: { ...brand.serviceDesk, webhook: { url: 'https://desk.example.com/hook', secretEnv: 'X' } } }, 'nl', 'K7QM-4XRT-9P', 0);
    expect(JSON.parse(hook!.text).request).toMatchObject({ drive: 'accu' });
  });
});

describe('the words of many requests', () => {
  it('are looked up in the language files once: later requests of the form read none of them, and say the same', () => {
    let reads = 0;
    // Every property read of the language files counted (a lookup walks them key by key).
    const counted = (tree: object): object =>
      new Proxy(tree, { get: (target, key, receiver) => (reads++, typeof Reflect.get(target, key, receiver) === 'object' ? counted(Reflect.get(target, key, receiver) as object) : Reflect.get(target, key, receiver)) });
    const watched = indexLanguages({ nl: counted(languages.get('nl')!) as never, de: counted(languages.get('de')!) as never });
    const compose = (reference: string, receivedAt: number) =>
      composeDeskMail({ model, request: { ...request, width: receivedAt }, brand, locale: 'de', reference, receivedAt, timeZone: 'Europe/Amsterdam', languages: watched });
    const first = compose('K7QM-4XRT-9P', 60_000);
    const before = reads;
    const later = Array.from({ length: 50 }, (_, i) => compose(`K7QM-4XRT-${i}`, 60_000 + i));
    console.log(`language-file reads: ${before} for the first desk mail, ${reads - before} for the 50 after it`);
    expect(reads - before).toBe(0);
    expect(later[0].text).toBe(first.text.replaceAll('K7QM-4XRT-9P', 'K7QM-4XRT-0'));
    expect(later[49].text).toMatch(/^Maaibreedte \(cm\): 60049$/m);
    expect(later[49].text).toMatch(/^Aandrijving: Accu$/m);
  });
});
