// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { afterNextPaint } from '../../../lib/after-paint.ts';
import { dockUiActions, useDockUiStore } from './dock-ui.ts';

afterEach(() => {
  vi.restoreAllMocks();
  sessionStorage.clear();
});

/** Settles after any write the store put off until after the next frame. */
const painted = () => new Promise<void>((done) => afterNextPaint(done));
const stored = () => JSON.parse(sessionStorage.getItem('askdock.question-dock')!).state;

describe('the dock state kept per tab', () => {
  it('[U6] a blocking question is stored as current after its first frame; its focus request and the handling of it write nothing more', async () => {
    const writes = vi.spyOn(Storage.prototype, 'setItem');
    dockUiActions().blockingQuestionArrived('s1', 'q1');
    expect(writes).toHaveBeenCalledTimes(0);
    const tick = useDockUiStore.getState().focus!.tick;
    dockUiActions().focusHandled(tick);
    dockUiActions().focusRequested('s1', 'composer');
    await painted();
    expect(writes).toHaveBeenCalledTimes(1);
    expect(stored().docks.s1).toEqual({ currentId: 'q1', collapsed: false });
    dockUiActions().dockCollapsed('s1');
    await painted();
    expect(writes).toHaveBeenCalledTimes(2);
    expect(stored().docks.s1.collapsed).toBe(true);
  });

  it('[U6] leaving the page writes what waits at once, so a reload finds the dock as it was', () => {
    dockUiActions().requestSelected('s2', 'q7');
    dispatchEvent(new Event('pagehide'));
    expect(stored().docks.s2).toEqual({ currentId: 'q7', collapsed: false });
  });
});
