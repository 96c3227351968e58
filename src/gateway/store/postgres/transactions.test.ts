import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../../protocol/session.ts';
import { freshSchema } from '../../../testing/postgres.ts';
import type { StoredEvent } from '../types.ts';
import { openPostgresStore, type SharedStore } from './store.ts';

/** Runs `fn` on a store of a fresh schema with sessions s1 and s2, then drops both. */
async function withStore(fn: (s: SharedStore) => Promise<void>): Promise<void> {
  const schema = await freshSchema('numbering');
  const s = await openPostgresStore(schema.url);
  try {
    for (const key of ['s1', 's2']) await s.createSession({ key, title: key, createdBy: 'op', agentId: null, createdAtMs: 1_000, lastMessageAtMs: null });
    await fn(s);
  } finally {
    await s.close();
    await schema.drop();
  }
}

const message = (id: string, seq: number): ChatMessage => ({ id, sessionKey: 's1', role: 'user', text: `text of ${id}`, authorId: 'op', createdAtMs: 2_000, seq });
const chat = (m: ChatMessage): Omit<StoredEvent, 'seq'> => ({ event: 'chat', payload: { sessionKey: m.sessionKey, message: m, state: 'final' }, audience: { sessionKey: m.sessionKey }, atMs: 2_000 });
const other = (sessionKey: string): Omit<StoredEvent, 'seq'> => ({ event: 'question.retired', payload: { id: `q-${sessionKey}` }, audience: { sessionKey }, atMs: 2_000 });

/** The committed chat events of message `id`: their seqs, and the message seq each carries. */
async function chatSeqs(s: SharedStore, id: string): Promise<[number, number][]> {
  return (await s.eventsAfter(0, 100))
    .filter((e) => e.event === 'chat' && (e.payload as { message: ChatMessage }).message.id === id)
    .map((e) => [e.seq, (e.payload as { message: ChatMessage }).message.seq]);
}

describe('D2 provisional seqs of a PostgreSQL gateway', () => {
  it("[D2][C2] a message's seq, taken before its writes, is its chat event's although another lane held an event meanwhile", () =>
    withStore(async (s) => {
      expect(s.lanes).toBeGreaterThan(1);
      let release!: () => void;
      const writesDone = new Promise<void>((ok) => (release = ok));
      let numbered!: () => void;
      const taken = new Promise<void>((ok) => (numbered = ok));
      let reserved = 0;
      // As GatewayCore.appendMessage: the seq first, then the message's writes (waiting on the database), then its event.
      const sending = s.lane(0).transaction(async () => {
        reserved = s.reserveSeq()!;
        numbered();
        await writesDone;
        const m = message('m-1', reserved);
        await s.insertMessage(m);
        return await s.appendEvent(chat(m));
      });
      await taken;
      // Another lane of the same gateway holds (and commits) an event of its own in between.
      await s.lane(1).transaction(() => s.appendEvent(other('s2')));
      release();
      expect(await sending).toBe(reserved);

      const [kept] = (await s.history('s1', 10)).messages;
      expect(kept.id).toBe('m-1');
      expect(await chatSeqs(s, 'm-1')).toEqual([[kept.seq, kept.seq]]);
      expect(s.settledSeq(reserved)).toBe(kept.seq);
    }));

  it('[D2][C2] a second chat event of the same message in one transaction takes a seq of its own; the message keeps the first', () =>
    withStore(async (s) => {
      const seqs = await s.transaction(async () => {
        const m = message('m-2', s.reserveSeq()!);
        await s.insertMessage(m);
        return [m.seq, await s.appendEvent(chat(m)), await s.appendEvent(chat(m))];
      });
      expect(seqs[1]).toBe(seqs[0]);
      expect(seqs[2]).not.toBe(seqs[0]);
      const [kept] = (await s.history('s1', 10)).messages;
      const events = await chatSeqs(s, 'm-2');
      expect(events.map(([seq]) => seq)).toEqual([kept.seq, kept.seq + 1]);
    }));
});
