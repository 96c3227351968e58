import { useLayoutEffect, useRef, type RefObject } from 'react';
import type { QuestionRecord } from '../../../../protocol/index.ts';
import { useDockUiActions, useDockUiStore } from '../stores/dock-ui.ts';

/**
 * U1 after a reload (or on opening a session): a blocking question the dock shows expanded when its questions first
 * load takes focus as one that comes in does, after its first frame (use-dock-focus). Focus the person already put
 * somewhere else (a search field, a control they picked) stays there; async questions never take it (U8). From the
 * composer the question replaces (U1: expanded, it replaces the composer) it is taken as an arriving question takes it;
 * collapsing the dock brings the composer back with its text.
 */
export function useRestoredFocus(
  sessionKey: string,
  loaded: boolean,
  shown: QuestionRecord | undefined,
  composerRef: RefObject<HTMLElement | null>,
) {
  const actions = useDockUiActions();
  const checkedFor = useRef<string | null>(null);
  // Before the frame, as an arriving question asks for focus before the dock is written into the page.
  useLayoutEffect(() => {
    if (!loaded || checkedFor.current === sessionKey) return;
    checkedFor.current = sessionKey;
    // A question that came in while the list loaded already asked for focus (use-arrival-focus).
    if (shown?.mode !== 'blocking' || useDockUiStore.getState().focus?.sessionKey === sessionKey) return;
    const held = document.activeElement;
    const inComposer = held instanceof HTMLElement && !!composerRef.current?.contains(held);
    // The composer the question hides lets go of focus, as for one that comes in (use-arrival-focus); its text stays.
    if (inComposer) held.blur();
    if (inComposer || !held || held === document.body) actions.blockingQuestionRestored(sessionKey, shown.id);
  }, [sessionKey, loaded, shown, composerRef, actions]);
}
