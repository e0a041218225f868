import countryFile from 'virtual:portal-countries';
import { indexCountries } from '../../core/countries';

/** The portal's countries (countries.json of SCHEMAS_DIR): which have an address lookup and which postal-code pattern. */
export const countries = indexCountries(countryFile);
