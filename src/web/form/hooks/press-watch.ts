/** What a press means for the page: it began, and it is over (its click, if any, has run). */
export interface PressCallbacks {
  pressed(): void;
  released(): void;
}

/**
 * How long a lifted finger waits for its click: a tap's mouse events (the
 * mousedown that moves focus) and its click follow the touchend, a few ms
 * later, or up to 300 ms where the browser waits for a double tap.
 */
export const TAP_CLICK_WAIT_MS = 1000;

/**
 * Watches every pointer on the page, in the capture phase, so a press is
 * known before any control or blur handler runs. The press is over once the
 * click its release produces has run (a task later), or at once when no
 * click can follow: a cancelled pointer, a release we never saw (outside the
 * window: the next move shows no button down), the page losing focus or
 * hiding. Only the primary button or contact counts: nothing else clicks.
 * Returns the function that stops watching.
 */
export function watchPresses(win: Window, { pressed, released }: PressCallbacks): () => void {
  const down = new Set<number>();
  let holding = false;
  let timer: number | undefined;

  const stopTimer = () => {
    if (timer !== undefined) win.clearTimeout(timer);
    timer = undefined;
  };
  const release = () => {
    stopTimer();
    down.clear();
    if (!holding) return;
    holding = false;
    released();
  };
  const releaseAfter = (ms: number) => {
    stopTimer();
    timer = win.setTimeout(release, ms);
  };
  const lifted = (pointerId: number, clickWait: number) => {
    if (!down.delete(pointerId) || down.size) return;
    releaseAfter(clickWait);
  };

  const listeners: [string, EventTarget, (event: Event) => void][] = [
    ['pointerdown', win, (event) => {
      const e = event as PointerEvent;
      if (e.button !== 0) return;
      down.add(e.pointerId);
      stopTimer();
      if (holding) return;
      holding = true;
      pressed();
    }],
    // A mouse's click is dispatched in the same task as its release; a finger's comes after.
    ['pointerup', win, (event) => {
      const e = event as PointerEvent;
      lifted(e.pointerId, e.pointerType === 'touch' ? TAP_CLICK_WAIT_MS : 0);
    }],
    ['pointercancel', win, (event) => lifted((event as PointerEvent).pointerId, 0)],
    ['pointermove', win, (event) => {
      const e = event as PointerEvent;
      if (e.buttons === 0 && down.has(e.pointerId)) lifted(e.pointerId, 0);
    }],
    // Runs before the click's own handlers: the timer lets them and the default action go first.
    ['click', win, () => {
      if (holding && !down.size) releaseAfter(0);
    }],
    // Fields' blurs pass the window in capture too; only the window's own counts.
    ['blur', win, (event) => {
      if (event.target === event.currentTarget) release();
    }],
    ['visibilitychange', win.document, () => {
      if (win.document.visibilityState === 'hidden') release();
    }],
  ];
  for (const [type, target, listener] of listeners) target.addEventListener(type, listener, true);
  return () => {
    for (const [type, target, listener] of listeners) target.removeEventListener(type, listener, true);
    stopTimer();
  };
}
