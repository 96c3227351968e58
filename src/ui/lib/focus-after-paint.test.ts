// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { focusAfterPaint } from './focus-after-paint.ts';

let frames: FrameRequestCallback[] = [];

beforeEach(() => {
  vi.useFakeTimers();
  frames = [];
  vi.stubGlobal('requestAnimationFrame', (cb: FrameRequestCallback) => frames.push(cb));
  document.body.innerHTML = '<textarea aria-label="Message"></textarea><button id="choice">One</button><button id="other">Other</button>';
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  document.body.innerHTML = '';
});

const el = (id: string) => document.getElementById(id) as HTMLElement;
const nextFrame = () => {
  for (const frame of frames.splice(0)) frame(0);
  vi.advanceTimersByTime(0);
};

describe('focusAfterPaint', () => {
  it('[U6] moves focus after the next frame, once, and not before', () => {
    const focus = vi.fn(() => el('choice').focus());
    focusAfterPaint({ focus, yielded: vi.fn() });
    expect(focus).not.toHaveBeenCalled();
    nextFrame();
    expect(el('choice')).toHaveFocus();
    vi.advanceTimersByTime(1000);
    expect(focus).toHaveBeenCalledTimes(1);
  });

  it('[U3] a key pressed first moves focus at once and is handed to the new focus, not the element that had it', () => {
    const message = document.querySelector('textarea')!;
    message.focus();
    const atMessage = vi.fn();
    const atChoice = vi.fn((e: KeyboardEvent) => [e.key, e.ctrlKey]);
    message.addEventListener('keydown', atMessage);
    el('choice').addEventListener('keydown', atChoice);
    focusAfterPaint({ focus: () => el('choice').focus(), yielded: vi.fn() });
    const typed = message.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', ctrlKey: true, bubbles: true, cancelable: true }));
    expect(typed).toBe(false);
    expect(atMessage).not.toHaveBeenCalled();
    expect(el('choice')).toHaveFocus();
    expect(atChoice.mock.results.map((r) => r.value)).toEqual([['Enter', true]]);
  });

  it('[U3] Tab is left to the browser, to move on from the new focus', () => {
    focusAfterPaint({ focus: () => el('choice').focus(), yielded: vi.fn() });
    const tab = new KeyboardEvent('keydown', { key: 'Tab', bubbles: true, cancelable: true });
    expect(document.body.dispatchEvent(tab)).toBe(true);
    expect(el('choice')).toHaveFocus();
  });

  it('[U6] focus the person moves first, or a press of the pointer, wins: no focus after the frame', () => {
    for (const act of [() => el('other').focus(), () => document.body.dispatchEvent(new Event('pointerdown', { bubbles: true }))]) {
      const focus = vi.fn();
      const yielded = vi.fn();
      focusAfterPaint({ focus, yielded });
      act();
      nextFrame();
      expect(focus).not.toHaveBeenCalled();
      expect(yielded).toHaveBeenCalledTimes(1);
    }
  });

  it('cancelled before the frame, it does nothing and leaves no listener behind', () => {
    const focus = vi.fn();
    const cancel = focusAfterPaint({ focus, yielded: vi.fn() });
    cancel();
    const key = new KeyboardEvent('keydown', { key: '1', bubbles: true, cancelable: true });
    expect(document.body.dispatchEvent(key)).toBe(true);
    nextFrame();
    expect(focus).not.toHaveBeenCalled();
  });
});
