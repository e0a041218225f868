// @vitest-environment jsdom
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { ADDRESS_LOOKUP_DELAY_MS } from '../../../../src/core/address-lookup';
import { brands, renderForm, setMeta } from '../helpers';

const pdok = (street: string, city: string, postcode: string, huisnummer: number) => ({
  response: { numFound: 1, docs: [{ straatnaam: street, woonplaatsnaam: city, postcode, huisnummer, weergavenaam: '' }] },
});

function stubLookup(body: unknown, ok = true) {
  const fetch = vi.fn(async (_url: string) => ({ ok, status: ok ? 200 : 500, json: async () => body }) as unknown as Response);
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

describe.each([
  ['nl', 'Postcode', 'Huisnummer', 'Straatnaam', 'Plaats', 'Adres ingevuld: Evert van de Beekstraat, Schiphol.'],
  ['fr', 'Code postal', 'Numéro', 'Rue', 'Localité', 'Adresse complétée : Evert van de Beekstraat, Schiphol.'],
] as const)('address lookup in the form (%s)', (locale, postal, house, street, city, announced) => {
  it('fills street and city from the configured lookup service', async () => {
    setMeta('portal:address-lookup-url', 'http://lookup.test/free');
    const fetch = stubLookup(pdok('Evert van de Beekstraat', 'Schiphol', '1118CP', 202));
    const { user } = renderForm(brands.ilve, locale, 'nl');
    await user.type(screen.getByLabelText(postal), '1118 cp');
    await user.type(screen.getByLabelText(house), '202');
    await waitFor(() => expect((screen.getByLabelText(street) as HTMLInputElement).value).toBe('Evert van de Beekstraat'), { timeout: 2000 });
    expect((screen.getByLabelText(city) as HTMLInputElement).value).toBe('Schiphol');
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(fetch.mock.calls[0][0]).toBe('http://lookup.test/free?q=1118CP+202&fq=type%3Aadres&rows=1');
    expect(screen.getByRole('status').textContent).toBe(announced);
    setMeta('portal:address-lookup-url', '');
  });
});

describe('address lookup rules', () => {
  it('does not look up outside the Netherlands', async () => {
    // The debounce's clock only (React renders through setImmediate); fields filled as a paste would, since
    // user-event's typing waits on real timers.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const fetch = stubLookup(pdok('x', 'y', '1118CP', 202));
      renderForm(brands.ilve, 'nl', 'be');
      act(() => void fireEvent.change(screen.getByLabelText('Postcode'), { target: { value: '1118CP' } }));
      act(() => void fireEvent.change(screen.getByLabelText('Huisnummer'), { target: { value: '202' } }));
      // Well past the lookup's debounce, with no waiting.
      await act(() => vi.advanceTimersByTimeAsync(ADDRESS_LOOKUP_DELAY_MS * 4));
      expect(fetch).not.toHaveBeenCalled();
    } finally {
      vi.useRealTimers();
    }
  });

  it('shows a spinner in street and city while it runs; a failure stays silent', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    let fail!: () => void;
    vi.stubGlobal('fetch', vi.fn(() => new Promise((_, reject) => (fail = () => reject(new TypeError('offline'))))));
    const { user } = renderForm(brands.fratelli, 'nl', 'nl');
    await user.type(screen.getByLabelText('Postcode'), '1118CP');
    await user.type(screen.getByLabelText('Huisnummer'), '202');
    await waitFor(() => expect(screen.getByLabelText('Straatnaam').getAttribute('aria-busy')).toBe('true'), { timeout: 2000 });
    expect(screen.getByLabelText('Plaats').getAttribute('aria-busy')).toBe('true');
    expect(document.querySelectorAll('.field__spinner')).toHaveLength(2);
    fail();
    await waitFor(() => expect(screen.getByLabelText('Straatnaam').getAttribute('aria-busy')).toBeNull());
    expect(warn).toHaveBeenCalled();
    expect(screen.queryByRole('alert')).toBeNull();
    expect((screen.getByLabelText('Straatnaam') as HTMLInputElement).value).toBe('');
  });
});
