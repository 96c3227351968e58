import { describe, expect, it } from 'vitest';
import { entryLine } from '../../../audit/index.ts';
import type { AuditCheckpointRow } from '../audit-rows.ts';
import type { Store } from '../types.ts';

const asked = (questionId: string) => ({ atMs: 1_000, event: 'question.asked' as const, identity: 'agent', questionId });

/** L1: the audit log's part of the store contract, run by store.contract.test.ts against every store. */
export function auditContract(store: () => Store): void {
  describe('audit log', () => {
    it('[L1] appends hand out indexes 0, 1, 2… with each entry stored as its canonical line', async () => {
      const s = store();
      const a = await s.appendAudit(asked('q1'));
      const b = await s.appendAudit(asked('q2'), { questionId: 'q2', salt: Buffer.alloc(16, 7), answers: { pick: ['A'] } });
      expect([a.index, b.index]).toEqual([0, 1]);
      expect(await s.auditSize()).toBe(2);
      expect(await s.auditLines(0, 10)).toEqual([
        { index: 0, line: entryLine(a) },
        { index: 1, line: entryLine(b) },
      ]);
      expect(await s.auditLines(1, 2)).toEqual([{ index: 1, line: entryLine(b) }]);
      expect(await s.auditAnswers(0, 10)).toEqual([{ entryIndex: 1, questionId: 'q2', salt: Buffer.alloc(16, 7), answers: { pick: ['A'] } }]);
    });

    it('[L1][R3] an entry appended in a rolled-back transaction leaves nothing, and the next one takes its index', async () => {
      const s = store();
      await s.appendAudit(asked('q1'));
      await expect(async () =>
        s.transaction(async () => {
          await s.appendAudit(asked('q2'), { questionId: 'q2', salt: Buffer.alloc(16, 1), answers: 'x' });
          throw new Error('undo');
        }),
      ).rejects.toThrow('undo');
      expect(await s.auditSize()).toBe(1);
      expect(await s.auditAnswers(0, 10)).toEqual([]);
      expect((await s.appendAudit(asked('q3'))).index).toBe(1);
      expect((await s.auditLines(0, 10)).map((r) => r.index)).toEqual([0, 1]);
    });

    it('[L1] an entry appended unread takes its index in order among the entries around it, and a rolled-back one leaves nothing', async () => {
      const s = store();
      await s.appendAuditUnread(asked('q0'));
      // Several transactions in a row: a store that writes such an entry with the transaction's next statement does so
      // once its statements are known on the connection (the first ones run at once).
      for (let round = 0; round < 4; round++) {
        const read = await s.transaction(async () => {
          await s.appendAuditUnread(asked(`a${round}`));
          const b = await s.appendAudit(asked(`b${round}`));
          await s.appendAuditUnread(asked(`c${round}`));
          return b.index;
        });
        expect(read).toBe(2 + round * 3);
      }
      await expect(async () =>
        s.transaction(async () => {
          await s.appendAuditUnread(asked('undone'));
          throw new Error('undo');
        }),
      ).rejects.toThrow('undo');
      await s.transaction(async () => {
        await s.transaction(async () => s.appendAuditUnread(asked('kept')));
        await expect(async () =>
          s.transaction(async () => {
            await s.appendAuditUnread(asked('undone'));
            throw new Error('undo');
          }),
        ).rejects.toThrow('undo');
      });
      const lines = await s.auditLines(0, 100);
      const ids = lines.map((l) => (JSON.parse(l.line) as { questionId: string }).questionId);
      expect(ids).toEqual(['q0', ...[0, 1, 2, 3].flatMap((r) => [`a${r}`, `b${r}`, `c${r}`]), 'kept']);
      expect(lines.map((l) => l.index)).toEqual(ids.map((_, i) => i));
      expect(lines.every((l, i) => (JSON.parse(l.line) as { index: number }).index === i)).toBe(true);
    });

    it('[L2][L7] checkpoints are kept as signed: the same note once; another note of a size already signed (after an acknowledgement) is kept and is the latest', async () => {
      const s = store();
      expect(await s.latestAuditCheckpoint()).toBeUndefined();
      await s.insertAuditCheckpoint({ size: 2, note: 'two', signedAtMs: 1 });
      await s.insertAuditCheckpoint({ size: 5, note: 'five', signedAtMs: 2 });
      // Two gateways signing the same tree sign the same note.
      await s.insertAuditCheckpoint({ size: 5, note: 'five', signedAtMs: 3 });
      // The newest alone, read without the others (the Control UI asks on every admin's page load).
      expect(unnumbered(await s.latestAuditCheckpoint())).toEqual({ size: 5, note: 'five', signedAtMs: 2 });
      // An acknowledgement restarts the log from its rows: signed again at a size already signed, over other entries.
      await s.insertAuditCheckpoint({ size: 5, note: 'again', signedAtMs: 4 });
      expect(unnumbered(await s.latestAuditCheckpoint())).toEqual({ size: 5, note: 'again', signedAtMs: 4 });
      // One left smaller than a checkpoint signed before it: the last signed is the latest, the list stays smallest first.
      await s.insertAuditCheckpoint({ size: 3, note: 'three', signedAtMs: 5 });
      expect(unnumbered(await s.latestAuditCheckpoint())).toEqual({ size: 3, note: 'three', signedAtMs: 5 });
      const all = await s.auditCheckpoints();
      // Numbered in the order stored (what an acknowledgement marks): the latest has the largest number.
      expect([...all].sort((a, b) => a.serial - b.serial).map((c) => c.note)).toEqual(['two', 'five', 'again', 'three']);
      expect(all.map(unnumbered)).toEqual([
        { size: 2, note: 'two', signedAtMs: 1 },
        { size: 3, note: 'three', signedAtMs: 5 },
        { size: 5, note: 'five', signedAtMs: 2 },
        { size: 5, note: 'again', signedAtMs: 4 },
      ]);
    });

    it('[L9][L7] a checkpoint is found by its size: the first signed at it after the mark given, none at a size never signed', async () => {
      const s = store();
      expect(await s.auditCheckpointOfSize(2, 0)).toBeUndefined();
      await s.insertAuditCheckpoint({ size: 2, note: 'two', signedAtMs: 1 });
      await s.insertAuditCheckpoint({ size: 5, note: 'five', signedAtMs: 2 });
      await s.insertAuditCheckpoint({ size: 5, note: 'again', signedAtMs: 3 });
      await s.insertAuditCheckpoint({ size: 7, note: 'seven', signedAtMs: 4 });
      const serial = (note: string) => async () => (await s.auditCheckpoints()).find((c) => c.note === note)!.serial;
      expect(await s.auditCheckpointOfSize(5, 0)).toEqual({ serial: await serial('five')(), size: 5, note: 'five', signedAtMs: 2 });
      // Past an acknowledgement's mark: the ones stored before it do not count.
      expect((await s.auditCheckpointOfSize(5, await serial('five')()))?.note).toBe('again');
      expect(await s.auditCheckpointOfSize(2, await serial('five')())).toBeUndefined();
      expect(await s.auditCheckpointOfSize(3, 0)).toBeUndefined();
      expect((await s.auditCheckpointOfSize(7, 0))?.note).toBe('seven');
    });
  });
}

/** A checkpoint row without its number (engines number differently: a note stored once may still take a number). */
function unnumbered(row: AuditCheckpointRow | undefined): Omit<AuditCheckpointRow, 'serial'> | undefined {
  if (!row) return undefined;
  const { serial: _serial, ...rest } = row;
  return rest;
}
