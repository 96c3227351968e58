// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { composerFocusDropped, composerFocusRequested, takeComposerHandOff } from './composer-focus.ts';

const key = (key: string, init: KeyboardEventInit = {}, target: EventTarget = document.body) => {
  const event = new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true, ...init });
  target.dispatchEvent(event);
  return event;
};

afterEach(() => {
  composerFocusDropped();
});

describe('New session hand-off', () => {
  it('[C1][U12] keeps what is typed outside text fields until the composer mounts, Enter included', async () => {
    composerFocusRequested();
    for (const k of 'deployy') key(k);
    expect(key('Backspace').defaultPrevented).toBe(true);
    expect(key('Enter').defaultPrevented).toBe(true);
    key('x');
    const handOff = takeComposerHandOff();
    expect(handOff).toEqual({ focus: true, text: 'deploy', send: true });
    // A second read in the same task (StrictMode) sees the same; the next request starts empty.
    expect(takeComposerHandOff()).toEqual(handOff);
    await Promise.resolve();
    expect(takeComposerHandOff()).toEqual({ focus: false, text: '', send: false });
  });

  it('[U3] leaves text fields, modified keys and input-method keys alone, and holds nothing once dropped', () => {
    composerFocusRequested();
    const field = document.createElement('input');
    document.body.append(field);
    expect(key('a', {}, field).defaultPrevented).toBe(false);
    expect(key('c', { ctrlKey: true }).defaultPrevented).toBe(false);
    expect(key('Process', { keyCode: 229 }).defaultPrevented).toBe(false);
    expect(key('Enter').defaultPrevented).toBe(true);
    composerFocusDropped();
    expect(key('b').defaultPrevented).toBe(false);
    expect(takeComposerHandOff()).toEqual({ focus: false, text: '', send: false });
    field.remove();
  });
});
