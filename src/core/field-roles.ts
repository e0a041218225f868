/**
 * What the portal does with a field beyond validating it, written in the
 * form's schema as `"role": "<role>"` (never known by the field's name):
 * - customer-email: where the confirmation goes, whom the desk's reply reaches, whose data a person's request finds;
 * - dealer-email: where the dealer's notice goes (optional); a person named there is found and erased too;
 * - language: filled with the page's language; the request's mails are written in it;
 * - country: starts as the page's country, offers the brand's countries, decides the postal-code rule and the address lookup;
 * - brand: the brand name, fixed, chosen or typed as the brand file's brandField says;
 * - date-text: a date written as free text (an ISO date is written out for the desk).
 * `"personal": true` marks personal data (kept out of the log); both e-mail roles are personal too.
 */
export const FIELD_ROLES = ['customer-email', 'dealer-email', 'language', 'country', 'brand', 'date-text'] as const;

export type FieldRole = (typeof FIELD_ROLES)[number];

/** Roles a form may give to one field only. */
export const SINGLE_ROLES: readonly FieldRole[] = ['customer-email', 'dealer-email', 'language', 'country', 'brand'];

/** The address service's names (spec §3) for what a field gives to or takes from the lookup: `ui:options.addressLookup`. */
export const ADDRESS_LOOKUP_PARTS = ['postcode', 'huisnummer', 'straatnaam', 'woonplaatsnaam'] as const;

export type AddressLookupPart = (typeof ADDRESS_LOOKUP_PARTS)[number];
