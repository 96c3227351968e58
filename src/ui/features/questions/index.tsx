import { useCallback } from 'react';
import type { QuestionRecord, SecretRequestRecord } from '../../../protocol/index.ts';
import { dockKeyOf } from '../../lib/inbox.ts';
import { useHello } from '../../lib/gateway.tsx';
import { mayAnswer } from '../../../lib/may-answer.ts';
import { useQuestions } from './api/get-questions.ts';
import { useSecretRequests } from './api/get-secret-requests.ts';
import { useMarksOf } from './hooks/use-local-marks.ts';
import { pendingBySession } from './lib/model.ts';
import { inDock } from './lib/placement.ts';
import { dockUiActions } from './stores/dock-ui.ts';
import './styles/index.ts';

export { QuestionDock } from './components/question-dock.tsx';
export { dockCodeReady } from './components/dock-code.ts';
export { QuestionsSync } from './api/questions-sync.ts';
export { LiveAnnouncer } from './components/live-announcer.tsx';
export { useProvideSecretValue } from './api/provide-secret.ts';
export type { DeliverySlotProps, ReceiptSlotProps, SummarySlots } from './components/summary-slots.ts';

/** U15/W4: how many requests wait in a dock (a session's, or the Inbox's): questions pending and not retired, and secret requests. */
export function usePendingCount(dockKey: string): number {
  const marksOf = useMarksOf(dockKey);
  const questions =
    useQuestions(useCallback((all: QuestionRecord[]) => all.filter((r) => inDock(r, dockKey, marksOf(r.id))).length, [dockKey, marksOf])) ?? 0;
  const secrets =
    useSecretRequests(useCallback((all: SecretRequestRecord[]) => all.filter((r) => r.status === 'pending' && dockKeyOf(r) === dockKey).length, [dockKey])) ?? 0;
  return questions + secrets;
}

const NONE: ReadonlyMap<string, number> = new Map();

/** Requests waiting in each session's dock (what the sessions list shows beside each session). */
export function usePendingRequestCounts(): ReadonlyMap<string, number> {
  const marksOf = useMarksOf();
  return useQuestions(useCallback((all: QuestionRecord[]) => pendingBySession(all, marksOf), [marksOf])) ?? NONE;
}

/** Reopens the dock and moves focus into it: what `/question` in the composer does (U1). */
export function expandDock(sessionKey: string): void {
  dockUiActions().dockExpanded(sessionKey, { focus: true });
}

/** The one async question waiting in this session's dock, when it is the only request there (U8: a composer message may be meant for it). */
export function useOnlyDockedAsync(sessionKey: string): QuestionRecord | undefined {
  const marksOf = useMarksOf(sessionKey);
  return useQuestions(
    useCallback(
      (all: QuestionRecord[]) => {
        const docked = all.filter((r) => inDock(r, sessionKey, marksOf(r.id)));
        return docked.length === 1 && docked[0].mode === 'async' ? docked[0] : undefined;
      },
      [sessionKey, marksOf],
    ),
  );
}

/** The oldest secret request waiting in this session's dock that this person may provide (W4, E3: as a question they may answer), if any. */
export function usePendingSecret(sessionKey: string): SecretRequestRecord | undefined {
  const hello = useHello();
  const identity = hello?.auth.identity;
  const admin = hello?.auth.scopes.includes('operator.admin') === true;
  return useSecretRequests(
    useCallback(
      (all: SecretRequestRecord[]) => all.find((r) => r.status === 'pending' && dockKeyOf(r) === sessionKey && (!r.route || mayAnswer(r.route, identity, admin))),
      [sessionKey, identity, admin],
    ),
  );
}
