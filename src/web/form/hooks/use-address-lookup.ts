import { useEffect, useRef, useState } from 'react';
import { ADDRESS_LOOKUP_DELAY_MS, addressQuery, type FoundAddress } from '../../../core/address-lookup';
import { useCountries } from '../../app/countries';
import { createAddressLookup, type AddressLookupScheduler } from './address-lookup-scheduler';

export interface AddressLookupInput {
  country: unknown;
  postalCode: unknown;
  houseNumber: unknown;
  /** Read when a lookup starts (runtime setting). */
  baseUrl: () => string;
  onFound: (address: FoundAddress) => void;
}

/** Addresses of countries with a lookup only (the Netherlands): 500 ms after the last change of postal code, house number or country. Returns busy. */
export function useAddressLookup({ country, postalCode, houseNumber, baseUrl, onFound }: AddressLookupInput): boolean {
  const countries = useCountries();
  const [busy, setBusy] = useState(false);
  const latest = useRef({ baseUrl, onFound });
  const scheduler = useRef<AddressLookupScheduler | null>(null);

  useEffect(() => {
    latest.current = { baseUrl, onFound };
  });

  useEffect(() => {
    const created = createAddressLookup({
      fetch: (url, init) => globalThis.fetch(url, init),
      delayMs: ADDRESS_LOOKUP_DELAY_MS,
      onBusy: setBusy,
      onFound: (address) => latest.current.onFound(address),
    });
    scheduler.current = created;
    return () => created.cancel();
  }, []);

  const query = addressQuery(countries, country, postalCode, houseNumber);
  const key = query ? `${query.postalCode} ${query.houseNumber}` : '';
  useEffect(() => {
    scheduler.current?.request(latest.current.baseUrl(), query);
    // The key stands for the query: a new object each render must not restart the delay.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);

  return busy;
}
