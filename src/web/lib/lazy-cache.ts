/**
 * Loads each key once and hands out the same promise for it, marked as React
 * marks the promises `use` has seen (`status`, `value`): once loaded, `use`
 * reads it at once, without suspending (hydration keeps the server markup),
 * and a component always calls `use`, never only while loading (React
 * refuses a render that suspended on `use` and then skipped it).
 */
export interface LazyCache<V> {
  load(key: string): Promise<V>;
}

type Tracked<V> = Promise<V> & { status?: 'fulfilled' | 'rejected'; value?: V; reason?: unknown };

export function lazyCache<V>(loader: (key: string) => Promise<V>): LazyCache<V> {
  const promises = new Map<string, Tracked<V>>();
  return {
    load(key) {
      let promise = promises.get(key);
      if (!promise) {
        const loading: Tracked<V> = loader(key);
        loading.then(
          (value) => Object.assign(loading, { status: 'fulfilled', value }),
          (reason: unknown) => Object.assign(loading, { status: 'rejected', reason }),
        );
        promises.set(key, (promise = loading));
      }
      return promise;
    },
  };
}
