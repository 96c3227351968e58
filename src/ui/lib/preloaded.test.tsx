// @vitest-environment jsdom
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { preloaded } from './preloaded.ts';
import { SOON_MS } from './retrying-import.ts';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('preloaded (U11: the dock panels whose chunk failed come back)', () => {
  it('[U11] settles `ready` after a failed fetch, renders nothing, and shows the panel once the window is back online', async () => {
    vi.useFakeTimers();
    let up = false;
    const Panel = preloaded(() =>
      up ? Promise.resolve(() => <button type="button">Submit</button>) : Promise.reject(new TypeError('Failed to fetch dynamically imported module')),
      (panel) => panel,
    );
    const ready = vi.fn();
    void Panel.ready.then(ready);
    await vi.advanceTimersByTimeAsync(SOON_MS);
    expect(ready).toHaveBeenCalled();

    render(
      <div>
        <textarea aria-label="Message" />
        <Panel />
      </div>,
    );
    expect(screen.queryByRole('button', { name: 'Submit' })).toBeNull();
    expect(screen.getByRole('textbox', { name: 'Message' })).toBeTruthy();

    up = true;

    await act(async () => {
      window.dispatchEvent(new Event('online'));
      await vi.advanceTimersByTimeAsync(0);
    });
    expect(screen.getByRole('button', { name: 'Submit' })).toBeTruthy();
  });
});
