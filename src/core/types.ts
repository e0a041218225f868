export type Locale = 'nl' | 'fr';
export type Country = 'be' | 'fr' | 'nl' | 'lu';
export type Variant = 'extended' | 'simple';

/** A text every visitor reads, in both interface languages. */
export interface LocalizedText {
  nl: string;
  fr: string;
}

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
  variant: Variant;
  /** The countries with a page (/<id>/<locale>/<country>); other countries are 404. */
  countries: Country[];
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
  privacyPolicy: { default: string; be: LocalizedText };
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

/** What the page sends and the server stores (spec §3). */
export interface RepairRequest {
  last_name: string;
  street_name: string;
  house_number: number;
  house_number_suffix?: string;
  postal_code: string;
  city: string;
  country: Country;
  client_email: string;
  phone_number: string;
  phone_number2?: string;
  brand?: string;
  type?: string;
  serial_number?: string;
  purchase_date?: string;
  install_date?: string;
  description: string;
  additional_info?: string;
  notification?: string;
  language?: Locale;
  isAkkoord?: boolean;
  image1: string;
  image2: string;
}

/** Form state: the request plus the page-only fields. */
export type RepairFormData = Partial<RepairRequest> & {
  upload_1?: FileFacts;
  upload_2?: FileFacts;
};

/** What the page knows about a chosen photo before uploading it. */
export interface FileFacts {
  name: string;
  size: number;
  type: string;
}
