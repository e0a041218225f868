import { cleanup, render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, vi } from 'vitest';
import { brandFromFile } from '../../../src/core/brand-file';
import type { Brand, Country, Locale } from '../../../src/core/types';
import airodesign from '../../fixtures/brands/spec/airodesign.json';
import fratelli from '../../fixtures/brands/spec/fratelli.json';
import hanant from '../../fixtures/brands/spec/hanant.json';
import ilve from '../../fixtures/brands/spec/ilve.json';
import kuppersbusch from '../../fixtures/brands/spec/kuppersbusch.json';
import teka from '../../fixtures/brands/spec/teka.json';
import { RepairForm } from '../../../src/web/form/repair-form';
import { loadFormValidation } from '../../../src/web/form/validation';

// Each variant's validator is a lazily loaded chunk; load both up front so renders need no Suspense round.
await Promise.all([loadFormValidation('simple'), loadFormValidation('extended')]);

export const brands = {
  airodesign: brandFromFile(airodesign),
  fratelli: brandFromFile(fratelli),
  hanant: brandFromFile(hanant),
  ilve: brandFromFile(ilve),
  kuppersbusch: brandFromFile(kuppersbusch),
  teka: brandFromFile(teka),
};

export function setMeta(name: string, content: string): void {
  let meta = document.head.querySelector<HTMLMetaElement>(`meta[name="${name}"]`);
  if (!meta) {
    meta = document.createElement('meta');
    meta.name = name;
    document.head.append(meta);
  }
  meta.content = content;
}

export function renderForm(brand: Brand, locale: Locale = 'nl', country: Country = 'nl') {
  const user = userEvent.setup(vi.isFakeTimers() ? { advanceTimers: vi.advanceTimersByTime } : {});
  const view = render(<RepairForm brand={brand} locale={locale} country={country} />);
  return { user, ...view };
}

// Typing with user-event in jsdom is slow when the whole suite runs in parallel.
vi.setConfig({ testTimeout: 20_000 });

afterEach(() => {
  cleanup();
  sessionStorage.clear();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

/** A complete, valid draft of a variant (as a reload would find it). */
export function storeDraft(brandId: string, data: Record<string, unknown>): void {
  sessionStorage.setItem(`repair-portal:draft:${brandId}`, JSON.stringify(data));
}

export interface FakeResponse {
  ok: boolean;
  status: number;
  /** The answer's JSON; none: `{}`. */
  body?: unknown;
}

/** A fetch stub answering the submit; `calls` keeps url and init of each request. */
export function stubFetch(answers: (FakeResponse | Error)[]) {
  const fn = vi.fn(async (url: string, _init?: RequestInit) => {
    // The address lookup of a restored Dutch draft may ask too: it finds nothing.
    if (!url.includes('/api/forms/')) return { ok: true, status: 200, json: async () => ({ response: { docs: [] } }) } as unknown as Response;
    const next = answers.length > 1 ? answers.shift()! : answers[0];
    if (next instanceof Error) throw next;
    return { ok: next.ok, status: next.status, json: async () => next.body ?? {} } as unknown as Response;
  });
  vi.stubGlobal('fetch', fn);
  return fn;
}

/** The submit requests among the fetch calls: [url, init] pairs. */
export function submitCalls(fetch: ReturnType<typeof stubFetch>): [string, RequestInit][] {
  return fetch.mock.calls.filter(([url]) => url.includes('/api/forms/')) as [string, RequestInit][];
}

type Listener = (event: Event) => void;

/** XMLHttpRequest fake: records requests; the test drives progress, answer or failure. */
export class FakeXhr {
  static all: FakeXhr[] = [];
  method = '';
  url = '';
  headers: Record<string, string> = {};
  body: unknown;
  status = 0;
  responseText = '';
  upload = new EventTarget();
  private listeners = new Map<string, Listener[]>();

  static install(): void {
    FakeXhr.all = [];
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
  }
  /** The index-th upload once sent: the page sends after loading its shrinking code (a dynamic import). */
  static sent(index: number): Promise<FakeXhr> {
    return vi.waitFor(() => {
      const xhr = FakeXhr.all[index];
      if (!xhr) throw new Error(`upload ${index} not sent yet`);
      return xhr;
    });
  }
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  addEventListener(type: string, fn: Listener) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), fn]);
  }
  send(body: unknown) {
    this.body = body;
    FakeXhr.all.push(this);
  }
  abort() {
    this.emit('abort');
  }
  progress(loaded: number, total: number) {
    this.upload.dispatchEvent(Object.assign(new Event('progress'), { lengthComputable: true, loaded, total }));
  }
  respond(status: number, body: unknown) {
    this.status = status;
    this.responseText = JSON.stringify(body);
    this.emit('load');
  }
  fail() {
    this.emit('error');
  }
  private emit(type: string) {
    for (const fn of this.listeners.get(type) ?? []) fn(new Event(type));
  }
}

export function photo(name = 'plaatje.jpg', type = 'image/jpeg', size = 1000): File {
  const file = new File(['x'], name, { type });
  Object.defineProperty(file, 'size', { value: size });
  return file;
}
