import { useCallback, useEffect, useMemo, useRef } from 'react';

export interface PressGuard {
  /** For the submit button: a pointer press starts here, before the field it leaves blurs. */
  onPointerDown(): void;
  /** Runs `task` now, or once a press on the submit button has ended (a submit in between drops it). */
  afterPress(task: () => void): void;
  /** The press submitted: what it deferred is covered by the whole-form validation. */
  drop(): void;
}

/**
 * A press on the submit button blurs the field being left. If that blur
 * showed an error (or the extended form's panel) at once, the button would
 * move between press and release and the click would land elsewhere: the
 * press would be swallowed. So a blur caused by that press waits until the
 * press ends; the click then submits, or the blur's work runs after it.
 */
export function usePressGuard(): PressGuard {
  const pressing = useRef(false);
  const deferred = useRef<(() => void)[]>([]);

  const flush = useCallback(() => {
    const tasks = deferred.current;
    deferred.current = [];
    for (const task of tasks) task();
  }, []);

  useEffect(() => {
    const ended = () => {
      if (!pressing.current) return;
      pressing.current = false;
      // After the click this release produces (same input event), not before it.
      setTimeout(flush, 0);
    };
    window.addEventListener('pointerup', ended, true);
    window.addEventListener('pointercancel', ended, true);
    return () => {
      window.removeEventListener('pointerup', ended, true);
      window.removeEventListener('pointercancel', ended, true);
    };
  }, [flush]);

  return useMemo(
    () => ({
      onPointerDown() {
        pressing.current = true;
      },
      afterPress(task) {
        if (pressing.current) deferred.current.push(task);
        else task();
      },
      drop() {
        deferred.current = [];
      },
    }),
    [],
  );
}
