import { useEffect } from 'react';
import type { FormEvent } from '../form-state';
import { watchPresses } from './press-watch';

/**
 * Tells the form state when a pointer presses anywhere on the page and when
 * that press is over (after its click). Meanwhile the errors shown stay as
 * they were (form-state.ts: `pressing`), so no control moves between a
 * press and its release: a blur caused by the press itself (its mousedown
 * moves focus) shows its error only after the click has landed. Keyboard
 * use makes no press and is never held.
 */
export function usePressHold(dispatch: (event: FormEvent) => void): void {
  useEffect(
    () =>
      watchPresses(window, {
        pressed: () => dispatch({ type: 'pressStarted' }),
        released: () => dispatch({ type: 'pressEnded' }),
      }),
    [dispatch],
  );
}
