import { useEffect } from 'react';
import { draftFromAnswers } from '../../../../answers/collect.ts';
import { handedOffDrafts } from '../../../../lib/route-text.ts';
import type { QuestionRecord } from '../../../../protocol/index.ts';
import { useHello } from '../../../lib/gateway.tsx';
import { draftActions } from '../stores/drafts.ts';

/** The hand-offs whose drafts this tab took already (question id and the hand-off's time). */
const adopted = new Set<string>();

/**
 * E6: a question handed off to this person starts from the drafts its sender typed, unless this browser holds one;
 * once per hand-off, so what the person did since (their own answer, a held quorum vote) is never overwritten.
 */
export function useHandoffDrafts(record: QuestionRecord): void {
  const identity = useHello()?.auth.identity;
  const handed = handedOffDrafts(record.route, identity);
  const key = handed && `${record.id}@${handed.atMs}`;
  useEffect(() => {
    if (!handed || !key || adopted.has(key)) return;
    adopted.add(key);
    draftActions().draftRestored(record.id, draftFromAnswers(record, handed.drafts));
  }, [key, handed, record]);
}

/** Tests: a fresh tab. */
export function forgetAdoptedHandoffs(): void {
  adopted.clear();
}
