import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createAddressLookup } from '../../../../src/web/form/hooks/address-lookup-scheduler';

const q1 = { postalCode: '1118CP', houseNumber: 202 };
const q2 = { postalCode: '1118CP', houseNumber: 204 };
const doc = (q: typeof q1, street: string) => ({
  response: { docs: [{ straatnaam: street, woonplaatsnaam: 'Schiphol', postcode: q.postalCode, huisnummer: q.houseNumber }] },
});
const ok = (body: unknown) => new Response(JSON.stringify(body), { status: 200 });

function deferred<T>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe('address lookup scheduler', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  function setup(fetch: (url: string, init: RequestInit) => Promise<Response>) {
    const onFound = vi.fn();
    const onBusy = vi.fn();
    const fetchSpy = vi.fn(fetch);
    const lookup = createAddressLookup({ fetch: fetchSpy, delayMs: 500, onBusy, onFound });
    return { lookup, onFound, onBusy, fetchSpy };
  }

  it('waits 500 ms after the last change and asks once', async () => {
    const { lookup, fetchSpy, onFound } = setup(async () => ok(doc(q2, 'Straat B')));
    lookup.request('https://lookup.test/free', q1);
    await vi.advanceTimersByTimeAsync(300);
    lookup.request('https://lookup.test/free', q2);
    await vi.advanceTimersByTimeAsync(499);
    expect(fetchSpy).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(fetchSpy).toHaveBeenCalledTimes(1);
    expect(fetchSpy.mock.calls[0][0]).toBe('https://lookup.test/free?q=1118CP+204&fq=type%3Aadres&rows=1');
    await vi.runAllTimersAsync();
    expect(onFound).toHaveBeenCalledWith({ street: 'Straat B', city: 'Schiphol' });
  });

  it('never lets a late answer to an old query overwrite a newer one', async () => {
    const first = deferred<Response>();
    const second = deferred<Response>();
    const answers = [first.promise, second.promise];
    const { lookup, onFound } = setup(() => answers.shift()!);
    lookup.request('u', q1);
    await vi.advanceTimersByTimeAsync(500);
    lookup.request('u', q2);
    await vi.advanceTimersByTimeAsync(500);
    second.resolve(ok(doc(q2, 'Nieuw')));
    await vi.runAllTimersAsync();
    first.resolve(ok(doc(q1, 'Oud')));
    await vi.runAllTimersAsync();
    expect(onFound).toHaveBeenCalledTimes(1);
    expect(onFound).toHaveBeenCalledWith({ street: 'Nieuw', city: 'Schiphol' });
  });

  it('aborts the running request when a new query comes', async () => {
    const signals: AbortSignal[] = [];
    const { lookup } = setup((_u, init) => {
      signals.push(init.signal!);
      return new Promise<Response>(() => {});
    });
    lookup.request('u', q1);
    await vi.advanceTimersByTimeAsync(500);
    lookup.request('u', q2);
    expect(signals[0].aborted).toBe(true);
  });

  it('shows busy while fetching and logs failures only', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { lookup, onBusy, onFound } = setup(async () => new Response('nope', { status: 503 }));
    lookup.request('u', q1);
    await vi.advanceTimersByTimeAsync(500);
    expect(onBusy).toHaveBeenCalledWith(true);
    await vi.runAllTimersAsync();
    expect(onBusy).toHaveBeenLastCalledWith(false);
    expect(onFound).not.toHaveBeenCalled();
    expect(warn).toHaveBeenCalledTimes(1);
  });

  it('a cleared query (e.g. country be) cancels the pending lookup', async () => {
    const { lookup, fetchSpy } = setup(async () => ok(doc(q1, 'x')));
    lookup.request('u', q1);
    lookup.request('u', null);
    await vi.runAllTimersAsync();
    expect(fetchSpy).not.toHaveBeenCalled();
  });
});
