import { useEffect } from 'react';
import { draftFromAnswers } from '../../../../answers/collect.ts';
import { handedOffDrafts } from '../../../../lib/route-text.ts';
import type { QuestionRecord } from '../../../../protocol/index.ts';
import { useHello } from '../../../lib/gateway.tsx';
import { draftActions } from '../stores/drafts.ts';

/** E6: a question handed off to this person starts from the drafts its sender typed, unless this browser holds one. */
export function useHandoffDrafts(record: QuestionRecord): void {
  const identity = useHello()?.auth.identity;
  const drafts = handedOffDrafts(record.route, identity);
  useEffect(() => {
    if (drafts) draftActions().draftRestored(record.id, draftFromAnswers(record, drafts));
  }, [drafts, record]);
}
