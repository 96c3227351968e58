import type { RefObject } from 'react';
import { useGatewayEvent } from '../../../lib/gateway.tsx';
import { dockKeyOf } from '../../../lib/inbox.ts';
import { useDockUiActions } from '../stores/dock-ui.ts';

/** Blurs the element inside `container` that has focus, if any. */
function releaseFocus(container: HTMLElement | null) {
  const held = document.activeElement;
  if (held instanceof HTMLElement && container?.contains(held)) held.blur();
}

/**
 * A blocking question of this session that comes in from the gateway opens the dock and asks for focus in it (U1);
 * async questions never take focus or reopen a collapsed dock (U8). `secretPending`: a secret request of this session
 * keeps its prompt in front of the question, so the composer stays shown and keeps its focus.
 */
export function useArrivalFocus(sessionKey: string, composerRef: RefObject<HTMLElement | null>, secretPending: boolean) {
  const actions = useDockUiActions();
  useGatewayEvent('question.requested', ({ question }) => {
    if (dockKeyOf(question) !== sessionKey || question.status !== 'pending' || question.mode !== 'blocking') return;
    // The composer this question hides lets go of focus here, before the dock is written into the page: blurred after
    // that (use-dock-focus), the browser restyles the dock's new elements on the spot, which the frame does anyway.
    if (!secretPending) releaseFocus(composerRef.current);
    actions.blockingQuestionArrived(sessionKey, question.id);
  });
}
