import { useLayoutEffect, useRef, type RefObject } from 'react';
import type { QuestionRecord } from '../../../../protocol/index.ts';
import { useDockUiActions, useDockUiStore } from '../stores/dock-ui.ts';

/**
 * U1 after a reload (or on opening a session): a blocking question the dock shows expanded when its questions first
 * load takes focus as one that comes in does, after its first frame (use-dock-focus). Focus the person already put
 * somewhere (a field they type in, a control they picked) stays there; async questions never take it (U8). Someone
 * typing in the composer the question would hide keeps it: the dock opens collapsed, the slim bar showing the question.
 */
export function useRestoredFocus(
  sessionKey: string,
  loaded: boolean,
  shown: QuestionRecord | undefined,
  composerRef: RefObject<HTMLElement | null>,
) {
  const actions = useDockUiActions();
  const checkedFor = useRef<string | null>(null);
  // Before the frame: collapsed in time, the composer is never hidden under the person's typing.
  useLayoutEffect(() => {
    if (!loaded || checkedFor.current === sessionKey) return;
    checkedFor.current = sessionKey;
    // A question that came in while the list loaded already asked for focus (use-arrival-focus).
    if (shown?.mode !== 'blocking' || useDockUiStore.getState().focus?.sessionKey === sessionKey) return;
    const held = document.activeElement;
    if (held instanceof HTMLElement && composerRef.current?.contains(held)) actions.dockCollapsed(sessionKey);
    else if (!held || held === document.body) actions.blockingQuestionRestored(sessionKey, shown.id);
  }, [sessionKey, loaded, shown, composerRef, actions]);
}
