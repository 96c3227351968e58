import { afterEach, describe, expect, it, vi } from 'vitest';
import { realClock } from '../infra/clock.ts';
import { EventHub, type EventView, type Subscriber, type Viewer } from './hub.ts';
import { memoryLogger } from '../infra/logger.ts';
import { Turn } from './turn.ts';
import type { WireFrame } from './wire.ts';
import { openPostgresStore } from '../store/postgres/store.ts';
import type { SharedStore } from '../store/postgres/cluster.ts';
import type { Identity } from '../auth.ts';
import { freshSchema, type TestSchema } from '../../testing/postgres.ts';

// What a gateway spends per commit of another gateway it follows (issue 57 item 3), counted in work, not time.

const session = (key: string, title = key) => ({ key, title, createdBy: 'admin', agentId: null, createdAtMs: 1, lastMessageAtMs: null, pendingQuestions: 0 });
const identity = (id: string): Identity => ({ id, role: 'operator', scopes: new Set() });
/** Sees every event but those of sessions whose title starts with `hidden` (standing in for A3-A5's refusals). */
const view: EventView = (viewer, ev, shared) =>
  viewer.identity.id === 'refused' && (ev.payload as { session: { title: string } }).session.title.startsWith('hidden') ? null : shared();

let schema: TestSchema | undefined;
const stores: SharedStore[] = [];
afterEach(async () => {
  for (const s of stores.splice(0)) await s.close();
  await schema?.drop();
  schema = undefined;
});

async function twoStores(name: string): Promise<[SharedStore, SharedStore]> {
  schema = await freshSchema(name);
  const mine = await openPostgresStore(schema.url);
  stores.push(mine);
  const other = await openPostgresStore(schema.url);
  stores.push(other);
  return [mine, other];
}

function hubOn(store: SharedStore): EventHub {
  return new EventHub({ store, clock: realClock, view, checkPayloads: false, log: memoryLogger().log, turn: new Turn(), onRollback: () => {}, shareKey: (v) => v.identity });
}

/** This gateway's hub, and the other's, which commits but does not follow (only this one's work is counted). */
async function twoHubs(mine: SharedStore, other: SharedStore): Promise<[EventHub, EventHub]> {
  const hub = hubOn(mine);
  const theirs = hubOn(other);
  await hub.start();
  await theirs.start();
  theirs.stopListening();
  return [hub, theirs];
}

/** The reads of committed events `store` makes from now on (`after` of each). */
function countReads(store: SharedStore): number[] {
  const reads: number[] = [];
  const eventsAfter = store.eventsAfter.bind(store);
  store.eventsAfter = (after, limit) => (reads.push(after), eventsAfter(after, limit));
  return reads;
}

/** A connection that keeps each write it is given, and what the frames in them say. */
function connection(id: string): Subscriber & { writes: number; frames: { seq: number; title: string }[] } {
  const viewer: Viewer = { identity: identity(id), subscribed: () => true };
  const sub = {
    viewer,
    writes: 0,
    frames: [] as { seq: number; title: string }[],
    send(out: string | WireFrame) {
      sub.writes++;
      // One write may carry several frames (each a 2- or 4-byte head, then the text).
      const buf = typeof out === 'string' ? Buffer.from(out) : out;
      for (let at = 0; at < buf.length; ) {
        const short = buf[at + 1];
        const head = short === 126 ? 4 : 2;
        const length = short === 126 ? buf.readUInt16BE(at + 2) : short;
        const frame = JSON.parse(buf.subarray(at + head, at + head + length).toString()) as { seq: number; payload: { session: { title: string } } };
        sub.frames.push({ seq: frame.seq, title: frame.payload.session.title });
        at += head + length;
      }
    },
  };
  return sub;
}

/** Commits one unit of `hub` emitting a session.updated per title, and waits for its answer. */
async function commitTitles(hub: EventHub, titles: string[]): Promise<void> {
  await hub.commit(async (tx) => {
    for (const title of titles) await tx.emit('session.updated', { session: session(title) }, { sessionKey: title });
  }, titles[0]);
  await hub.settle();
}

describe("D5 following another gateway's commits on PostgreSQL", () => {
  it("[D5][D2] another gateway's commit of three events reaches each connection in one write, none read back", async () => {
    const [mine, other] = await twoStores('followrun');
    const [hub, theirs] = await twoHubs(mine, other);
    const reads = countReads(mine);
    const op = connection('operator');
    hub.add(op, 0);
    await commitTitles(theirs, ['one', 'two', 'three']);
    await expect.poll(() => op.frames.length, { timeout: 20_000 }).toBe(3);
    expect(op.frames).toEqual([
      { seq: 1, title: 'one' },
      { seq: 2, title: 'two' },
      { seq: 3, title: 'three' },
    ]);
    expect(op.writes).toBe(1);
    expect(reads).toEqual([]);
    hub.stopListening();
  });

  it("[D5][D2] another gateway's told events are framed from the notification's text: none serialised again, the bytes the committing gateway sent", async () => {
    const [mine, other] = await twoStores('followtext');
    const [hub, theirs] = await twoHubs(mine, other);
    const reads = countReads(mine);
    const op = connection('operator');
    const theirOp = connection('operator');
    hub.add(op, 0);
    theirs.add(theirOp, 0);
    const sent: Buffer[] = [];
    const send = op.send.bind(op);
    op.send = (out) => (sent.push(Buffer.from(out)), send(out));
    const theirSent: Buffer[] = [];
    const theirSend = theirOp.send.bind(theirOp);
    theirOp.send = (out) => (theirSent.push(Buffer.from(out)), theirSend(out));
    // Frames serialised whole (eventFrameText without the payload's JSON), here, once the commit was answered.
    const stringify = JSON.stringify;
    let serialised = 0;
    const spy = vi.spyOn(JSON, 'stringify').mockImplementation(((value: unknown, ...rest: unknown[]) => {
      if ((value as { type?: unknown } | null)?.type === 'event') serialised++;
      return (stringify as (...a: unknown[]) => string)(value, ...rest);
    }) as typeof JSON.stringify);
    try {
      await commitTitles(theirs, ['one', 'two ünïcode', 'three']);
      await expect.poll(() => op.frames.length, { timeout: 20_000 }).toBe(3);
      expect(op.frames.map((f) => f.title)).toEqual(['one', 'two ünïcode', 'three']);
      expect(serialised).toBe(0);
      expect(Buffer.concat(sent).equals(Buffer.concat(theirSent))).toBe(true);
      expect(reads).toEqual([]);
    } finally {
      spy.mockRestore();
      hub.stopListening();
    }
  });

  it("[D5][D2] another gateway's commit too large for one notification is told in several: every event arrives in order, none read back", async () => {
    const [mine, other] = await twoStores('followparts');
    const [hub, theirs] = await twoHubs(mine, other);
    const reads = countReads(mine);
    const op = connection('operator');
    hub.add(op, 0);
    // Thirty events of about 600 bytes each: some 18,000 bytes, where a notification carries under 8,000.
    const titles = Array.from({ length: 30 }, (_, i) => `part-${i}-${'x'.repeat(500)}`);
    await commitTitles(theirs, titles);
    await expect.poll(() => op.frames.length, { timeout: 20_000 }).toBe(30);
    expect(op.frames).toEqual(titles.map((title, i) => ({ seq: i + 1, title })));
    expect(reads).toEqual([]);
    hub.stopListening();
  });

  it("[A3][D5] a connection refused some of another gateway's events gets none of them in the run it is sent, and the others in order", async () => {
    const [mine, other] = await twoStores('followrefused');
    const [hub, theirs] = await twoHubs(mine, other);
    const refused = connection('refused');
    const allowed = connection('operator');
    hub.add(refused, 0);
    hub.add(allowed, 0);
    await commitTitles(theirs, ['hidden-a', 'open-b', 'hidden-c']);
    await commitTitles(theirs, ['hidden-d', 'hidden-e']);
    await commitTitles(theirs, ['open-f']);
    await expect.poll(() => allowed.frames.length, { timeout: 20_000 }).toBe(6);
    await expect.poll(() => refused.frames.map((f) => f.title), { timeout: 20_000 }).toEqual(['open-b', 'open-f']);
    expect(refused.frames.map((f) => f.seq)).toEqual([2, 6]);
    // The run made only of what it may not see sent it nothing at all (not even an empty write): every write carried a
    // frame. (Runs heard together may go in one write, so the count is a bound, not a number.)
    expect(refused.writes).toBeGreaterThanOrEqual(1);
    expect(refused.writes).toBeLessThanOrEqual(refused.frames.length);
    hub.stopListening();
  });

  it("[D5] a notification of this gateway's own commit heard after the commit's answer is not parsed; another gateway's is, once", async () => {
    const [mine, other] = await twoStores('followown');
    // Notifications are held until the commits they tell of were answered here (the usual order on a busy gateway).
    const onCommitted = mine.onCommitted.bind(mine);
    let holding = true;
    const held: (() => void)[] = [];
    mine.onCommitted = (fn) => onCommitted((seq, told) => (holding ? held.push(() => fn(seq, told)) : fn(seq, told)));
    const [hub, theirs] = await twoHubs(mine, other);
    const titles: string[] = [];
    hub.listenAll((ev) => titles.push((ev.payload as { session: { title: string } }).session.title));
    const reads = countReads(mine);
    // Parses of a notification's events (numbering.ts `told`: `[[1,"event",...`), whoever asks for them.
    const parse = JSON.parse;
    let toldParsed = 0;
    const spy = vi.spyOn(JSON, 'parse').mockImplementation((text: string, reviver?: Parameters<typeof parse>[1]) => {
      if (typeof text === 'string' && /^\[\[\d+,"/.test(text)) toldParsed++;
      return parse(text, reviver);
    });
    try {
      for (const title of ['mine-1', 'mine-2', 'mine-3']) await commitTitles(hub, [title, `${title}-b`]);
      await commitTitles(theirs, ['theirs-1', 'theirs-1-b']);
      await commitTitles(theirs, ['theirs-2']);
      // Every commit sends one notification.
      await expect.poll(() => held.length, { timeout: 20_000 }).toBe(5);
      holding = false;
      for (const tell of held.splice(0)) tell();
      await expect.poll(() => titles.length, { timeout: 20_000 }).toBe(9);
      expect(titles).toEqual(['mine-1', 'mine-1-b', 'mine-2', 'mine-2-b', 'mine-3', 'mine-3-b', 'theirs-1', 'theirs-1-b', 'theirs-2']);
      expect(toldParsed).toBe(2);
      expect(reads).toEqual([]);
    } finally {
      spy.mockRestore();
      hub.stopListening();
    }
  });
});
