// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TAP_CLICK_WAIT_MS, watchPresses } from '../../../../src/web/form/hooks/press-watch';

type Pointer = { pointerId?: number; pointerType?: string; button?: number; buttons?: number };

const pointer = (type: string, { pointerId = 1, pointerType = 'mouse', button = 0, buttons = 0 }: Pointer = {}) =>
  window.dispatchEvent(new PointerEvent(type, { pointerId, pointerType, button, buttons, bubbles: true }));
const click = () => document.body.dispatchEvent(new MouseEvent('click', { bubbles: true }));

let log: string[];
let stop: () => void;

beforeEach(() => {
  vi.useFakeTimers();
  log = [];
  stop = watchPresses(window, { pressed: () => log.push('pressed'), released: () => log.push('released') });
});

afterEach(() => {
  stop();
  vi.useRealTimers();
});

describe('watchPresses: a press is over once the click of its release has run', () => {
  it('mouse: held from down to the task after the click of the release', () => {
    pointer('pointerdown', { buttons: 1 });
    expect(log).toEqual(['pressed']);
    pointer('pointerup');
    click();
    expect(log).toEqual(['pressed']);
    vi.advanceTimersByTime(0);
    expect(log).toEqual(['pressed', 'released']);
  });

  it('mouse: a release that makes no click ends the press a task later', () => {
    pointer('pointerdown', { buttons: 1 });
    pointer('pointerup');
    vi.advanceTimersByTime(0);
    expect(log).toEqual(['pressed', 'released']);
  });

  it('finger: still held after the lift, until the tap’s click has run', () => {
    pointer('pointerdown', { pointerType: 'touch', buttons: 1 });
    pointer('pointerup', { pointerType: 'touch' });
    vi.advanceTimersByTime(50);
    // The tap's mousedown (which moves focus) and its click come after the lift.
    expect(log).toEqual(['pressed']);
    click();
    vi.advanceTimersByTime(0);
    expect(log).toEqual(['pressed', 'released']);
  });

  it('finger: a lift with no click ends the press after the wait for it', () => {
    pointer('pointerdown', { pointerType: 'touch', buttons: 1 });
    pointer('pointerup', { pointerType: 'touch' });
    vi.advanceTimersByTime(TAP_CLICK_WAIT_MS - 1);
    expect(log).toEqual(['pressed']);
    vi.advanceTimersByTime(1);
    expect(log).toEqual(['pressed', 'released']);
  });

  it('two fingers: one press, over when the last is lifted', () => {
    pointer('pointerdown', { pointerId: 1, pointerType: 'touch', buttons: 1 });
    pointer('pointerdown', { pointerId: 2, pointerType: 'touch', buttons: 1 });
    pointer('pointerup', { pointerId: 1, pointerType: 'touch' });
    vi.advanceTimersByTime(TAP_CLICK_WAIT_MS * 2);
    expect(log).toEqual(['pressed']);
    pointer('pointerup', { pointerId: 2, pointerType: 'touch' });
    vi.advanceTimersByTime(TAP_CLICK_WAIT_MS);
    expect(log).toEqual(['pressed', 'released']);
  });

  it('a new press while the last one waits for its click stays one press', () => {
    pointer('pointerdown', { pointerType: 'touch', buttons: 1 });
    pointer('pointerup', { pointerType: 'touch' });
    pointer('pointerdown', { pointerType: 'touch', buttons: 1 });
    vi.advanceTimersByTime(TAP_CLICK_WAIT_MS * 2);
    expect(log).toEqual(['pressed']);
  });
});

describe('watchPresses: nothing stays held', () => {
  it('a cancelled pointer (a scroll took over) ends the press', () => {
    pointer('pointerdown', { pointerType: 'touch', buttons: 1 });
    pointer('pointercancel', { pointerType: 'touch' });
    vi.advanceTimersByTime(0);
    expect(log).toEqual(['pressed', 'released']);
  });

  it('a release outside the window: the next move with no button down ends the press', () => {
    pointer('pointerdown', { buttons: 1 });
    pointer('pointermove', { buttons: 1 });
    vi.advanceTimersByTime(5_000);
    expect(log).toEqual(['pressed']);
    pointer('pointermove', { buttons: 0 });
    vi.advanceTimersByTime(0);
    expect(log).toEqual(['pressed', 'released']);
  });

  it('the window losing focus or the page hiding ends the press at once', () => {
    pointer('pointerdown', { buttons: 1 });
    window.dispatchEvent(new FocusEvent('blur'));
    expect(log).toEqual(['pressed', 'released']);
    pointer('pointerdown', { buttons: 1 });
    vi.spyOn(document, 'visibilityState', 'get').mockReturnValue('hidden');
    document.dispatchEvent(new Event('visibilitychange'));
    expect(log).toEqual(['pressed', 'released', 'pressed', 'released']);
  });

  it('a field’s own blur (it does not bubble, but passes the window in capture) is not the window’s', () => {
    const input = document.body.appendChild(document.createElement('input'));
    pointer('pointerdown', { buttons: 1 });
    input.dispatchEvent(new FocusEvent('blur'));
    expect(log).toEqual(['pressed']);
    input.remove();
  });

  it('stops watching when asked: no timer left behind', () => {
    pointer('pointerdown', { buttons: 1 });
    pointer('pointerup');
    stop();
    vi.advanceTimersByTime(TAP_CLICK_WAIT_MS);
    pointer('pointerdown', { buttons: 1 });
    expect(log).toEqual(['pressed']);
  });
});

describe('watchPresses: what is no press', () => {
  it('the keyboard: a click without a pointer (Enter, Space) holds nothing', () => {
    click();
    vi.advanceTimersByTime(TAP_CLICK_WAIT_MS);
    expect(log).toEqual([]);
  });

  it('a secondary button makes no click: not held', () => {
    pointer('pointerdown', { button: 2, buttons: 2 });
    expect(log).toEqual([]);
  });
});
