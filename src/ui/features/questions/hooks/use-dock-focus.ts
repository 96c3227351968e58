import { useEffect, type RefObject } from 'react';
import { focusWithoutLayout } from '../../../lib/focus-soon.ts';
import { useDockUiActions, useFocusRequest } from '../stores/dock-ui.ts';

const FIELD = 'textarea, input:not([type="hidden"]), [contenteditable="true"]';

/** The first choice of the shown question: the checked radio, else the first option, else the panel. */
export function focusIntoRequest(region: HTMLElement | null): boolean {
  const panel = region?.querySelector<HTMLElement>('[data-record-id]');
  if (!panel) return false;
  const question = panel.querySelector<HTMLElement>('[data-question-id]') ?? panel;
  const target =
    question.querySelector<HTMLElement>('[role="radio"][aria-checked="true"]') ??
    question.querySelector<HTMLElement>('[role="radio"], [role="checkbox"]') ??
    panel;
  focusWithoutLayout(target);
  return true;
}

/**
 * Carries out focus requests after the render they wait for: into the request (a blocking question arrived,
 * `/question`, a step changed) or back to the composer (collapsed, nothing left to answer).
 */
export function useDockFocus(
  sessionKey: string,
  regionRef: RefObject<HTMLElement | null>,
  composerRef: RefObject<HTMLElement | null>,
  shownId: string | null,
) {
  const focus = useFocusRequest(sessionKey);
  const { focusHandled } = useDockUiActions();
  useEffect(() => {
    if (!focus) return;
    // A question's event can reach the dock before its record reaches the cache: wait for it to show.
    if (focus.recordId && focus.recordId !== shownId) return;
    const toComposer = () => composerRef.current?.querySelector<HTMLElement>(FIELD)?.focus();
    if (focus.target === 'composer') toComposer();
    else if (!focusIntoRequest(regionRef.current)) toComposer();
    focusHandled(focus.tick);
  }, [focus, shownId, regionRef, composerRef, focusHandled]);
}
