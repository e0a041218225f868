import { indexCountries } from '../../core/countries';
import countryFile from '../../../schemas/countries.json';

/** The portal's countries (schemas/countries.json): which have an address lookup and which postal-code pattern. */
export const countries = indexCountries(countryFile);
