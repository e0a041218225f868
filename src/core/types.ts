/** A language code: a file schemas/i18n/<code>.json (nl, fr, …). */
export type Locale = string;
/** A country code: an entry of schemas/countries.json (be, fr, nl, lu, …). */
export type Country = string;
/** A form's name: the files schemas/forms/<name>.schema.json and <name>.ui.json. */
export type FormName = string;

/** A text every visitor reads, one per language the brand offers (nl, fr, …). */
export type LocalizedText = Readonly<Record<Locale, string>>;

export interface BrandTheme {
  primary: string;
  onPrimary: string;
  headerBackground: string;
  headerText: string;
  bannerBackground?: string;
  bannerText?: string;
  footerBackground: string;
  footerText: string;
}

export type SocialNetwork = 'facebook' | 'instagram' | 'youtube' | 'linkedin' | 'pinterest';

/** The shape of brands/<id>.json (see schemas/brand.schema.json). */
export interface Brand {
  id: string;
  name: string;
  form: FormName;
  /** The countries with a page (/<id>/<locale>/<country>); other countries are 404. */
  countries: Country[];
  /** The languages the brand's pages offer; absent: the portal's defaults (core/locale.ts). */
  locales?: Locale[];
  notes?: string;
  theme: BrandTheme;
  logo: string;
  favicon: string;
  header: {
    banner?: LocalizedText;
    title?: LocalizedText;
    languageSwitch: boolean;
  };
  footer: {
    companyName?: string;
    address?: string;
    phone?: string;
    social?: { network: SocialNetwork; url: string }[];
    legal?: { legalNotice: string; cookiesPolicy: string };
  };
  /** `default`, and per country the policy in each language (Belgium: nl and fr). */
  privacyPolicy: { default: string; [country: Country]: string | LocalizedText };
  brandField: { mode: 'fixed' | 'text' } | { mode: 'choice'; options: string[] };
  serviceDesk: ServiceDesk;
}

/** Where a brand's requests are delivered: the desk's mailboxes, and optionally a ticketing webhook. */
export interface ServiceDesk {
  emails: string[];
  /** The language the desk reads. */
  language: Locale;
  /**
   * The signing secret is read from the environment variable `secretEnv`, never from the brand file.
   * `allowPrivateNetwork`: the receiver may be at a private, loopback or link-local address (core/delivery-url.ts).
   */
  webhook?: { url: string; secretEnv: string; allowPrivateNetwork?: boolean };
}

/**
 * What the page sends and the server stores: the request fields of the
 * brand's form (its schema says which, and of what kind).
 */
export type RepairRequest = Readonly<Record<string, unknown>>;

/** Form state: the request plus the page-only fields (photo pickers hold FileFacts). */
export type RepairFormData = Record<string, unknown>;

/** What the page knows about a chosen photo before uploading it. */
export interface FileFacts {
  name: string;
  size: number;
  type: string;
}
