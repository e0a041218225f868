import { createContext, useContext } from 'react';
import countryFile from 'virtual:portal-countries';
import { indexCountries, type Countries } from '../../core/countries';

/** The portal's countries (countries.json of SCHEMAS_DIR): which have an address lookup and which postal-code pattern. */
export const countries = indexCountries(countryFile);

/** The countries the page knows: the built portal's, unless the studio's preview provides those being edited. */
export const CountriesContext = createContext<Countries>(countries);

export function useCountries(): Countries {
  return useContext(CountriesContext);
}
