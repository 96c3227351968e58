import type { KeptAnswer } from '../../audit/index.ts';
import { indexedEntry, type AuditCheckpointRow, type AuditStoreMethods } from './audit-rows.ts';
import type { UndoJournal } from './memory-journal.ts';

/** L1 in memory: the audit log as arrays; a rolled-back transaction pops what it appended. */
export function memoryAuditMethods(journal: Pick<UndoJournal, 'open' | 'undoable'>): AuditStoreMethods {
  const { open, undoable } = journal;
  const lines: string[] = [];
  const answers = new Map<number, KeptAnswer>();
  /** In the order they were signed. */
  const checkpoints: AuditCheckpointRow[] = [];
  const methods: AuditStoreMethods = {
    appendAudit(entry, kept) {
      open();
      const { entry: full, line } = indexedEntry(entry, lines.length);
      lines.push(line);
      undoable(() => lines.pop());
      if (kept) {
        answers.set(full.index, { entryIndex: full.index, questionId: kept.questionId, salt: Buffer.from(kept.salt), answers: structuredClone(kept.answers) });
        undoable(() => answers.delete(full.index));
      }
      return full;
    },
    appendAuditUnread: (entry) => void methods.appendAudit(entry),
    auditSize: () => (open(), lines.length),
    auditLines(from, to) {
      open();
      return lines.slice(from, to).map((line, i) => ({ index: from + i, line }));
    },
    auditAnswers(from, to) {
      open();
      return [...answers.values()].filter((a) => a.entryIndex >= from && a.entryIndex < to).sort((a, b) => a.entryIndex - b.entryIndex);
    },
    insertAuditCheckpoint(c) {
      open();
      // The same note twice is kept once; another note of a size already signed (after an acknowledgement) is kept too.
      if (checkpoints.some((k) => k.size === c.size && k.note === c.note)) return;
      checkpoints.push({ ...c, serial: checkpoints.length + 1 });
      undoable(() => checkpoints.pop());
    },
    // Smallest first; of one size, the first signed first (a stable sort keeps the signing order).
    auditCheckpoints: () => (open(), checkpoints.map((c) => ({ ...c })).sort((a, b) => a.size - b.size)),
    // Rows kept in an array have no holes to fill.
    fillAuditHoles: () => (open(), { runs: [], runCount: 0, lostCount: 0 }),
    latestAuditCheckpoint() {
      open();
      const last = checkpoints.at(-1);
      return last ? { ...last } : undefined;
    },
    auditCheckpointOfSize(size, afterSerial) {
      open();
      const found = checkpoints.find((c) => c.size === size && c.serial > afterSerial);
      return found ? { ...found } : undefined;
    },
  };
  return methods;
}
