// @vitest-environment jsdom
import { act, fireEvent, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { brands, renderForm } from '../helpers';

const INVALID_EMAIL = /e-mail|email/i;

/** The dealer e-mail (above the terms box) left with an invalid value by pressing the terms box. */
function setUp() {
  renderForm(brands.kuppersbusch, 'nl', 'be');
  const dealer = document.getElementById('root_notification') as HTMLInputElement;
  const box = document.getElementById('root_isAkkoord') as HTMLInputElement;
  dealer.focus();
  fireEvent.change(dealer, { target: { value: 'dealer@' } });
  return { dealer, box };
}

const errorOf = (id: string) => document.getElementById(`${id}__error`);

describe('usePressHold: a blur caused by a press shows its error after the press’s click', () => {
  it('mouse: nothing moves between down and up; the box is ticked, then the error shows', () => {
    vi.useFakeTimers();
    const { box } = setUp();
    act(() => {
      fireEvent.pointerDown(box, { pointerId: 1, pointerType: 'mouse', button: 0, buttons: 1 });
      fireEvent.mouseDown(box);
      box.focus();
    });
    expect(errorOf('root_notification')).toBeNull();
    expect(screen.queryByText(/Eén of meerdere velden/)).toBeNull();
    act(() => {
      fireEvent.pointerUp(box, { pointerId: 1, pointerType: 'mouse', button: 0 });
      fireEvent.mouseUp(box);
      fireEvent.click(box);
    });
    expect(box.checked).toBe(true);
    expect(errorOf('root_notification')).toBeNull();
    act(() => void vi.advanceTimersByTime(0));
    expect(errorOf('root_notification')?.textContent).toMatch(INVALID_EMAIL);
    expect(screen.getByText(/Eén of meerdere velden/)).toBeTruthy();
  });

  it('finger: the tap’s focus change comes after the lift and is still held until its click', () => {
    vi.useFakeTimers();
    const { box } = setUp();
    act(() => {
      fireEvent.pointerDown(box, { pointerId: 2, pointerType: 'touch', button: 0, buttons: 1 });
      fireEvent.pointerUp(box, { pointerId: 2, pointerType: 'touch', button: 0 });
    });
    act(() => void vi.advanceTimersByTime(10));
    act(() => box.focus());
    expect(errorOf('root_notification')).toBeNull();
    act(() => void fireEvent.click(box));
    act(() => void vi.advanceTimersByTime(0));
    expect(box.checked).toBe(true);
    expect(errorOf('root_notification')?.textContent).toMatch(INVALID_EMAIL);
  });

  it('a cancelled press leaves nothing held', () => {
    vi.useFakeTimers();
    const { box } = setUp();
    act(() => {
      fireEvent.pointerDown(box, { pointerId: 3, pointerType: 'touch', button: 0, buttons: 1 });
      box.focus();
      fireEvent.pointerCancel(box, { pointerId: 3, pointerType: 'touch' });
    });
    act(() => void vi.advanceTimersByTime(0));
    expect(errorOf('root_notification')?.textContent).toMatch(INVALID_EMAIL);
    expect(box.checked).toBe(false);
  });

  it('keyboard: leaving the field with Tab shows its error at once', async () => {
    const { user } = renderForm(brands.kuppersbusch, 'nl', 'be');
    await user.type(screen.getByLabelText(/dealer/i), 'dealer@');
    await user.tab();
    expect(errorOf('root_notification')?.textContent).toMatch(INVALID_EMAIL);
  });
});
