// @vitest-environment jsdom
import { expect, it } from 'vitest';
import { DEFAULT_ADDRESS_LOOKUP_URL } from '../../../src/core/address-lookup';
import { readRuntimeSettings } from '../../../src/web/form/runtime-settings';

function doc(html: string): Document {
  return new DOMParser().parseFromString(`<html><head>${html}</head></html>`, 'text/html');
}

it('defaults to same origin and the PDOK endpoint', () => {
  expect(readRuntimeSettings(doc('<meta name="portal:api-base" content="">'))).toEqual({
    apiBase: '',
    addressLookupUrl: DEFAULT_ADDRESS_LOOKUP_URL,
  });
});

it('reads both settings from the served HTML', () => {
  const settings = readRuntimeSettings(
    doc('<meta name="portal:api-base" content="https://api.example.test/"><meta name="portal:address-lookup-url" content="http://fake/free">'),
  );
  expect(settings).toEqual({ apiBase: 'https://api.example.test', addressLookupUrl: 'http://fake/free' });
});
