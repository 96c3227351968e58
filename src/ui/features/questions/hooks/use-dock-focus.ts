import { useEffect, type RefObject } from 'react';
import { focusAfterPaint } from '../../../lib/focus-after-paint.ts';
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
    const carryOut = () => {
      if (focus.target === 'composer') toComposer();
      else if (!focusIntoRequest(regionRef.current)) toComposer();
      focusHandled(focus.tick);
    };
    // A blocking question that came in paints first and takes focus after that frame: keys pressed meanwhile go into it
    // all the same (focusAfterPaint). Focus moved by the person's own key or click follows at once.
    if (focus.arrival) {
      // The composer the question hides lets go of focus now (the browser would blur it in a task of its own after the
      // frame): while the hidden field kept focus, that frame laid the page out a second time after the log's resize.
      // The dock's event handler already let go of it before the dock was rendered (QuestionDock); this is for a request
      // shown by another way, such as a secret prompt leaving the question in front.
      const held = document.activeElement;
      if (held instanceof HTMLElement && composerRef.current?.contains(held) && composerRef.current.hidden) held.blur();
      return focusAfterPaint({ focus: carryOut, yielded: () => focusHandled(focus.tick) });
    }
    carryOut();
  }, [focus, shownId, regionRef, composerRef, focusHandled]);
}
