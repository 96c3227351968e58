// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { dockUiActions, useDockUiStore } from './dock-ui.ts';

afterEach(() => {
  vi.restoreAllMocks();
  sessionStorage.clear();
});

describe('the dock state kept per tab', () => {
  it('[U6] a blocking question is stored as current; its focus request and the handling of it write nothing more', () => {
    const writes = vi.spyOn(Storage.prototype, 'setItem');
    dockUiActions().blockingQuestionArrived('s1', 'q1');
    expect(writes).toHaveBeenCalledTimes(1);
    const tick = useDockUiStore.getState().focus!.tick;
    dockUiActions().focusHandled(tick);
    dockUiActions().focusRequested('s1', 'composer');
    expect(writes).toHaveBeenCalledTimes(1);
    expect(JSON.parse(sessionStorage.getItem('askdock.question-dock')!).state.docks.s1).toEqual({ currentId: 'q1', collapsed: false });
    dockUiActions().dockCollapsed('s1');
    expect(writes).toHaveBeenCalledTimes(2);
    expect(JSON.parse(sessionStorage.getItem('askdock.question-dock')!).state.docks.s1.collapsed).toBe(true);
  });
});
