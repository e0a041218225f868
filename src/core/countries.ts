import type { Country } from './types';

/** What the portal knows of a country (schemas/countries.json). */
export interface CountryFacts {
  /** The pattern its postal codes match; none: only the form's length limit. */
  postalCode?: string;
  /** Street and city are looked up from postal code and house number (the Dutch address service). */
  addressLookup?: boolean;
}

/** schemas/countries.json, parsed: every country by code, in the order forms offer them. */
export interface CountryFile {
  countries: Readonly<Record<Country, CountryFacts>>;
}

export type Countries = ReadonlyMap<Country, CountryFacts>;

export function indexCountries(file: CountryFile): Countries {
  return new Map(Object.entries(file.countries));
}

/** Postal-code pattern per country, for the postalCode keyword (countries without one are absent). */
export function postalCodePatterns(countries: Countries): Record<Country, string> {
  return Object.fromEntries([...countries].flatMap(([code, facts]) => (facts.postalCode ? [[code, facts.postalCode]] : [])));
}
