import { describe, expect, it } from 'vitest';
import { newSeed } from '../../audit/ed25519.ts';
import { leafHash, MerkleTree, signCheckpoint, signerOf } from '../../audit/index.ts';
import { signerFromSeed } from '../../audit/note.ts';
import { createMemoryStore } from '../store/memory.ts';
import type { Store } from '../store/types.ts';
import { AuditLog, CHECK_CHUNK } from './audit-log.ts';

const ORIGIN = 'askdock.local/audit-selfcheck';
const keys = [{ ...signerFromSeed(ORIGIN, newSeed()), validFrom: '2026-12-01T00:00:00.000Z' }];

async function append(store: Store, count: number): Promise<void> {
  const from = await store.auditSize();
  for (let i = 0; i < count; i++) await store.appendAudit({ atMs: 1_000 + from + i, event: 'question.asked', identity: 'agent', questionId: `q-${from + i}` });
}

type Seen = { checkpointRows: number; lineReads: { from: number; rows: number; turn: number }[] };

/**
 * The store as the self-check reads it: counts the checkpoint rows read and the line reads, each with the turn of the
 * event loop it came in (a `setImmediate` ticker stands for `/healthz` waiting its turn); `edit` changes one stored line
 * as it is read, as an edit of the table would.
 */
function watched(store: Store, seen: Seen, turn: () => number, edit?: { index: number }): Store {
  return new Proxy(store, {
    get(target, name, receiver) {
      if (name === 'auditCheckpoints')
        return async () => {
          const rows = await target.auditCheckpoints();
          seen.checkpointRows += rows.length;
          return rows;
        };
      if (name === 'latestAuditCheckpoint')
        return async () => {
          const row = await target.latestAuditCheckpoint();
          seen.checkpointRows += row ? 1 : 0;
          return row;
        };
      if (name === 'auditLines')
        return async (from: number, to: number) => {
          const rows = await target.auditLines(from, to);
          seen.lineReads.push({ from, rows: rows.length, turn: turn() });
          return rows.map((r) => (r.index === edit?.index ? { ...r, line: r.line.replace('"agent"', '"someone"') } : r));
        };
      return Reflect.get(target, name, receiver);
    },
  });
}

/** A store with checkpoints signed at the given sizes. */
async function signedAt(sizes: number[]): Promise<Store> {
  const store = createMemoryStore();
  const log = new AuditLog(store, keys, ORIGIN);
  for (const size of sizes) {
    await append(store, size - (await store.auditSize()));
    await log.sign(2_000 + size);
  }
  return store;
}

function ticker(): { turn: () => number; stop: () => void } {
  let turns = 0;
  let running = true;
  const tick = () => {
    turns++;
    if (running) setImmediate(tick);
  };
  setImmediate(tick);
  return { turn: () => turns, stop: () => void (running = false) };
}

describe('the full re-read of the log (L7: at start, on an admin\'s sign or an export, and once a minute with a checkpoint)', () => {
  it('[L7] a full re-read with a checkpoint reads the last checkpoint alone, not every one signed', async () => {
    const store = await signedAt([3, 5, 7, 9, 11]);
    const seen: Seen = { checkpointRows: 0, lineReads: [] };
    expect(await new AuditLog(watched(store, seen, () => 0), keys, ORIGIN).selfCheck()).toEqual({ ok: true });
    expect(seen.checkpointRows).toBe(1);
  });

  it('[L7] at start every checkpoint is checked', async () => {
    const store = await signedAt([3, 5, 7]);
    const seen: Seen = { checkpointRows: 0, lineReads: [] };
    expect(await new AuditLog(watched(store, seen, () => 0), keys, ORIGIN).selfCheck(0, true)).toEqual({ ok: true });
    expect(seen.checkpointRows).toBe(3);
  });

  it('[L7] a stored entry edited while the gateway runs: the next full re-read fails and names the smallest checkpoint over it', async () => {
    const store = await signedAt([3, 5, 7]);
    const seen: Seen = { checkpointRows: 0, lineReads: [] };
    const log = new AuditLog(watched(store, seen, () => 0, { index: 1 }), keys, ORIGIN);
    expect(await log.selfCheck()).toEqual({ ok: false, detail: 'the stored entries no longer match the checkpoint of size 3: an entry below index 3 was changed' });
  });

  it('[L7] an edit above every checkpoint but the last is named by the last', async () => {
    const store = await signedAt([3, 5, 7]);
    const seen: Seen = { checkpointRows: 0, lineReads: [] };
    const log = new AuditLog(watched(store, seen, () => 0, { index: 6 }), keys, ORIGIN);
    expect(await log.selfCheck()).toMatchObject({ ok: false, detail: expect.stringMatching(/checkpoint of size 7:/) });
  });

  it('[L7] a large log is read in chunks with a turn of the event loop between them, so other work (/healthz) goes on', async () => {
    const entries = CHECK_CHUNK * 3 + 5;
    const store = await signedAt([entries]);
    const seen: Seen = { checkpointRows: 0, lineReads: [] };
    const clock = ticker();
    try {
      expect(await new AuditLog(watched(store, seen, clock.turn), keys, ORIGIN).selfCheck()).toEqual({ ok: true });
    } finally {
      clock.stop();
    }
    expect(seen.lineReads.map((r) => r.rows)).toEqual([CHECK_CHUNK, CHECK_CHUNK, CHECK_CHUNK, 5]);
    const turns = seen.lineReads.map((r) => r.turn);
    for (let i = 1; i < turns.length; i++) expect(turns[i]).toBeGreaterThan(turns[i - 1]);
  });

  it('[L7] a whole chunk of rows deleted is still a hole', async () => {
    const store = await signedAt([CHECK_CHUNK + 10]);
    const seen: Seen = { checkpointRows: 0, lineReads: [] };
    const holed = new Proxy(store, {
      get(target, name, receiver) {
        if (name !== 'auditLines') return Reflect.get(target, name, receiver);
        return async (from: number, to: number) => (await target.auditLines(from, to)).filter((r) => r.index === 0 || r.index > CHECK_CHUNK);
      },
    });
    expect(await new AuditLog(watched(holed, seen, () => 0), keys, ORIGIN).selfCheck()).toEqual({ ok: false, detail: 'entry 1 is missing from the log' });
  });

  it('[L7] a last checkpoint rewritten over an edit, signed by no key of ours, sends the check through every checkpoint', async () => {
    const store = await signedAt([3, 5, 7]);
    const edited = (await store.auditLines(0, 7)).map((r) => (r.index === 1 ? r.line.replace('"agent"', '"someone"') : r.line));
    const stranger = [{ ...signerFromSeed(ORIGIN, newSeed()), validFrom: '2026-12-01T00:00:00.000Z' }];
    const forged = signCheckpoint(ORIGIN, new MerkleTree(edited.map(leafHash)), signerOf(stranger));
    const latest = (await store.latestAuditCheckpoint())!;
    const rewritten = new Proxy(store, {
      get(target, name, receiver) {
        if (name === 'latestAuditCheckpoint') return async () => ({ ...latest, note: forged });
        return Reflect.get(target, name, receiver);
      },
    });
    const seen: Seen = { checkpointRows: 0, lineReads: [] };
    const log = new AuditLog(watched(rewritten, seen, () => 0, { index: 1 }), keys, ORIGIN);
    expect(await log.selfCheck()).toEqual({ ok: false, detail: 'the stored entries no longer match the checkpoint of size 3: an entry below index 3 was changed' });
  });

  it('[L7] when the largest checkpoint was set aside by an acknowledgement, the ones stored after it are still checked', async () => {
    const store = createMemoryStore();
    await append(store, 7);
    await new AuditLog(store, keys, ORIGIN).sign(5_000);
    // Stored after it (serial 2), over the first five entries, as after an acknowledgement that left the log shorter.
    const five = (await store.auditLines(0, 5)).map((r) => leafHash(r.line));
    await store.insertAuditCheckpoint({ size: 5, note: signCheckpoint(ORIGIN, new MerkleTree(five), signerOf(keys)), signedAtMs: 1_000 });
    const seen: Seen = { checkpointRows: 0, lineReads: [] };
    const log = new AuditLog(watched(store, seen, () => 0, { index: 1 }), keys, ORIGIN);
    // The acknowledgement set aside serial 1 (the checkpoint of size 7).
    expect(await log.selfCheck(1)).toEqual({ ok: false, detail: 'the stored entries no longer match the checkpoint of size 5: an entry below index 5 was changed' });
  });
});
