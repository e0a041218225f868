import { addressLookupUrl, pickAddress, type AddressQuery, type FoundAddress } from '../../../core/address-lookup';

export interface AddressLookupDeps {
  fetch: (url: string, init: RequestInit) => Promise<Response>;
  delayMs: number;
  onBusy(busy: boolean): void;
  onFound(address: FoundAddress): void;
}

export interface AddressLookupScheduler {
  /** A new query (or null: nothing to look up) replaces any pending or running one. */
  request(baseUrl: string, query: AddressQuery | null): void;
  cancel(): void;
}

/**
 * Debounces lookups and drops stale answers: every request bumps a sequence
 * number and aborts the previous fetch; an answer is used only while its
 * number is still the latest. Failures are logged and otherwise ignored.
 */
export function createAddressLookup(deps: AddressLookupDeps): AddressLookupScheduler {
  let sequence = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let controller: AbortController | undefined;

  function stop(): void {
    sequence += 1;
    clearTimeout(timer);
    controller?.abort();
    controller = undefined;
  }

  async function run(mine: number, baseUrl: string, query: AddressQuery): Promise<void> {
    const ownController = new AbortController();
    controller = ownController;
    deps.onBusy(true);
    try {
      const response = await deps.fetch(addressLookupUrl(baseUrl, query), {
        signal: ownController.signal,
        headers: { Accept: 'application/json' },
      });
      if (!response.ok) throw new Error(`address lookup answered ${response.status}`);
      const body: unknown = await response.json();
      if (mine !== sequence) return;
      const found = pickAddress(body, query);
      if (found) deps.onFound(found);
    } catch (error) {
      if (mine === sequence && !ownController.signal.aborted) console.warn('Address lookup failed', error);
    } finally {
      if (mine === sequence) deps.onBusy(false);
    }
  }

  return {
    request(baseUrl, query) {
      const wasRunning = controller !== undefined;
      stop();
      if (wasRunning || !query) deps.onBusy(false);
      if (!query) return;
      const mine = sequence;
      timer = setTimeout(() => void run(mine, baseUrl, query), deps.delayMs);
    },
    cancel() {
      stop();
      deps.onBusy(false);
    },
  };
}
