import { useCallback, useRef, useState } from 'react';
import { formReducer, type FormEvent, type FormState, type FormStore } from '../form-state';

/**
 * useReducer, readable at once: a handler that dispatches and then validates
 * must see its own change, not the last render's. The ref is the reducer's
 * result, never a second copy kept by hand.
 */
export function useFormStore(init: () => FormState): FormStore {
  const latest = useRef<FormState | null>(null);
  latest.current ??= init();
  const [state, setState] = useState(latest.current);
  const read = useCallback(() => latest.current as FormState, []);
  const dispatch = useCallback((event: FormEvent) => {
    const next = formReducer(read(), event);
    if (next === latest.current) return;
    latest.current = next;
    setState(next);
  }, [read]);
  return { state, dispatch, read };
}
