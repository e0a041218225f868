/**
 * Loads each key once and remembers the result, so a component can read it
 * synchronously once loaded and otherwise suspend on the same promise
 * (React's `use` needs a stable promise per key).
 */
export interface LazyCache<V> {
  load(key: string): Promise<V>;
  loaded(key: string): V | undefined;
}

export function lazyCache<V>(loader: (key: string) => Promise<V>): LazyCache<V> {
  const values = new Map<string, V>();
  const promises = new Map<string, Promise<V>>();
  return {
    load(key) {
      let promise = promises.get(key);
      if (!promise) {
        promise = loader(key).then((value) => {
          values.set(key, value);
          return value;
        });
        promises.set(key, promise);
      }
      return promise;
    },
    loaded: (key) => values.get(key),
  };
}
