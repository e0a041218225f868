import type { Countries } from './countries';

export const DEFAULT_ADDRESS_LOOKUP_URL = 'https://api.pdok.nl/bzk/locatieserver/search/v3_1/free';
export const ADDRESS_LOOKUP_DELAY_MS = 500;

export interface AddressQuery {
  postalCode: string;
  houseNumber: number;
}

export interface FoundAddress {
  street: string;
  city: string;
}

/**
 * A query only for an address in a country whose addresses are looked up
 * (schemas/countries.json: the Dutch service serves the Netherlands), with a
 * postal code of that country's form and a house number; otherwise null.
 */
export function addressQuery(countries: Countries, country: unknown, postalCode: unknown, houseNumber: unknown): AddressQuery | null {
  const facts = typeof country === 'string' ? countries.get(country) : undefined;
  if (!facts?.addressLookup || typeof postalCode !== 'string') return null;
  if (facts.postalCode !== undefined && !new RegExp(facts.postalCode).test(postalCode)) return null;
  if (typeof houseNumber !== 'number' || !Number.isInteger(houseNumber) || houseNumber < 1) return null;
  return { postalCode: postalCode.replace(/\s+/g, '').toUpperCase(), houseNumber };
}

/** PDOK free search: q = postal code without spaces and house number; addresses only; one row. */
export function addressLookupUrl(base: string, query: AddressQuery): string {
  const params = new URLSearchParams({
    q: `${query.postalCode} ${query.houseNumber}`,
    fq: 'type:adres',
    rows: '1',
  });
  return `${base}?${params}`;
}

interface LookupDoc {
  straatnaam?: unknown;
  woonplaatsnaam?: unknown;
  postcode?: unknown;
  huisnummer?: unknown;
}

/** The street and city of the first result, but only when it is the address asked for (the search is fuzzy). */
export function pickAddress(body: unknown, query: AddressQuery): FoundAddress | null {
  const doc = (body as { response?: { docs?: LookupDoc[] } })?.response?.docs?.[0];
  if (!doc || doc.postcode !== query.postalCode || doc.huisnummer !== query.houseNumber) return null;
  if (typeof doc.straatnaam !== 'string' || typeof doc.woonplaatsnaam !== 'string') return null;
  return { street: doc.straatnaam, city: doc.woonplaatsnaam };
}
