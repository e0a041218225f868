import { describe, expect, it } from 'vitest';
import { addressLookupUrl, addressQuery as query, DEFAULT_ADDRESS_LOOKUP_URL, pickAddress } from '../../src/core/address-lookup';
import { indexCountries } from '../../src/core/countries';

// Countries as schemas/countries.json has them; a country without the lookup is never asked for.
const countries = indexCountries({ countries: { nl: { postalCode: '^[1-9][0-9]{3} ?[A-Za-z]{2}$', addressLookup: true }, be: { postalCode: '^[0-9]{4}$' } } });
const addressQuery = (country: string, postalCode: unknown, houseNumber: unknown) => query(countries, country, postalCode, houseNumber);

const answer = {
  response: {
    numFound: 1,
    docs: [{ straatnaam: 'Evert van de Beekstraat', woonplaatsnaam: 'Schiphol', postcode: '1118CP', huisnummer: 202, weergavenaam: 'x' }],
  },
};

describe('address lookup (core)', () => {
  it('asks only in countries with the lookup (the Netherlands), with a postal code of that country and a house number', () => {
    expect(addressQuery('nl', '1118 cp', 202)).toEqual({ postalCode: '1118CP', houseNumber: 202 });
    expect(addressQuery('be', '1000', 2)).toBeNull();
    expect(addressQuery('nl', '0118CP', 2)).toBeNull();
    expect(addressQuery('nl', '1118CP', undefined)).toBeNull();
    expect(addressQuery('nl', '1118CP', 0)).toBeNull();
  });

  it('builds the PDOK free-search URL: q, fq=type:adres, rows=1', () => {
    const url = new URL(addressLookupUrl(DEFAULT_ADDRESS_LOOKUP_URL, { postalCode: '1118CP', houseNumber: 202 }));
    expect(url.origin + url.pathname).toBe(DEFAULT_ADDRESS_LOOKUP_URL);
    expect(Object.fromEntries(url.searchParams)).toEqual({ q: '1118CP 202', fq: 'type:adres', rows: '1' });
  });

  it('takes street and city of the address asked for only', () => {
    const query = { postalCode: '1118CP', houseNumber: 202 };
    expect(pickAddress(answer, query)).toEqual({ street: 'Evert van de Beekstraat', city: 'Schiphol' });
    expect(pickAddress(answer, { ...query, houseNumber: 203 })).toBeNull();
    expect(pickAddress({ response: { numFound: 0, docs: [] } }, query)).toBeNull();
    expect(pickAddress('nonsense', query)).toBeNull();
  });
});
