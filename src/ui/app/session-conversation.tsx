import { useMemo, type ReactNode } from 'react';
import { Transcript } from '../features/chat/components/transcript.tsx';
import type { TranscriptExtraItem } from '../features/chat/lib/interleave.ts';
import { ReplyAnswers, useQuestionTranscriptItems } from '../features/questions/transcript.tsx';
import { useSummarySlots } from './use-summary-slots.ts';

type Props = {
  sessionKey: string;
  /** The outbox's chat messages not yet in the saved history (U11). */
  pendingItems: readonly TranscriptExtraItem[];
  lastSentNote?: ReactNode;
  demoAgent?: boolean;
};

/**
 * The conversation with the session's question summaries placed among its messages (U7-U9). A component of its own
 * (and a chunk, with the transcript's code): a question ending adds its summary here, and the page around the log, its
 * title row and its menus, is not rendered again for it.
 */
export function SessionConversation({ sessionKey, pendingItems, lastSentNote, demoAgent }: Props) {
  const questionItems = useQuestionTranscriptItems(sessionKey, useSummarySlots(sessionKey));
  const extraItems = useMemo(() => (pendingItems.length ? [...questionItems, ...pendingItems] : questionItems), [questionItems, pendingItems]);
  return <Transcript sessionKey={sessionKey} extraItems={extraItems} ReplyBody={ReplyAnswers} lastSentNote={lastSentNote} demoAgent={demoAgent} />;
}
