import { useCallback, useState } from 'react';

/** State kept in this browser across reloads (the interface language, the open file). */
export function useKept<T>(key: string, initial: T): [T, (value: T) => void] {
  const [value, setValue] = useState<T>(() => {
    try {
      const kept = localStorage.getItem(key);
      return kept === null ? initial : (JSON.parse(kept) as T);
    } catch {
      return initial;
    }
  });
  const keep = useCallback(
    (next: T) => {
      setValue(next);
      try {
        localStorage.setItem(key, JSON.stringify(next));
      } catch {
        // Not kept across a reload: only a convenience.
      }
    },
    [key],
  );
  return [value, keep];
}
