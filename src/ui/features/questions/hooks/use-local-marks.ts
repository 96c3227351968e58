import { useMemo } from 'react';
import { own } from '../../../../protocol/rules.ts';
import type { OutboxRow } from '../../../lib/outbox/machine.ts';
import { useOutboxRowForQuestion, useOutboxRows } from '../../../lib/outbox/use-outbox.ts';
import type { LocalMarks } from '../lib/placement.ts';
import { useDockUiStore, useReopened } from '../stores/dock-ui.ts';
import { useSkipMark, useSkipped } from '../stores/skips.ts';

export type MarksOf = (recordId: string) => LocalMarks;

/** What this browser knows of each question of a session (or of all, without one): reopened, skipped, outbox row. */
export function useMarksOf(sessionKey?: string): MarksOf {
  const reopened = useReopened();
  const skipped = useSkipped();
  const rows = useOutboxRows(sessionKey);
  return useMemo(() => {
    const delivery = new Map(rows.flatMap((r) => (r.questionId === undefined ? [] : [[r.questionId, r.state] as const])));
    return (id: string) => ({ reopenedOver: own(reopened, id), skippedAtMs: own(skipped, id)?.atMs, delivery: delivery.get(id) });
  }, [reopened, skipped, rows]);
}

/** One question's marks, and its outbox row, for its summary. */
export function useLocalMarks(recordId: string): LocalMarks & { row: OutboxRow | undefined } {
  const reopenedOver = useDockUiStore((s) => own(s.reopened, recordId));
  const skippedAtMs = useSkipMark(recordId)?.atMs;
  const row = useOutboxRowForQuestion(recordId);
  return { reopenedOver, skippedAtMs, delivery: row?.state, row };
}
