import { afterEach, describe, expect, it } from 'vitest';
import { KEEP_EVENTS } from './core.ts';
import { FakeClock } from '../testing/fake-clock.ts';
import { item, startTestGateway, type TestGateway, type Who } from '../testing/gateway-harness.ts';
import type { TestClient } from '../testing/ws-client.ts';
import { laterCommit } from '../testing/barrier.ts';

let t: TestGateway | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const seqs = (c: TestClient, after = 0) => c.seqEvents().filter((e) => e.seq! > after).map((e) => `${e.seq}:${e.event}`);

describe('resume', () => {
  it('[R1] every state-changing event carries an increasing seq and the snapshot cursor is the newest', async () => {
    t = await startTestGateway();
    const admin = await t.connect('admin');
    const agent = await t.connect('agent');
    const { session } = await admin.call('sessions.create', {});
    await admin.call('chat.send', { sessionKey: session.key, message: 'hi', idempotencyKey: 'r1-key-01' });
    const { id } = await agent.call('question.request', { sessionKey: session.key, questions: [item()] });
    await admin.call('question.resolve', { id, skip: true });
    const later = await t.connect('admin');
    const cursor = later.hello!.snapshot.cursor;
    // Once the event numbered as the cursor is in, every earlier one is too (they go out in seq order).
    await admin.until(() => admin.seqEvents().find((e) => e.seq === cursor), undefined, 'the event at the cursor');
    const got = admin.seqEvents().map((e) => e.seq!);
    expect(got.length).toBeGreaterThanOrEqual(6);
    expect(got).toEqual([...got].sort((a, b) => a - b));
    expect(new Set(got).size).toBe(got.length);
    expect(cursor).toBe(got[got.length - 1]);
  });

  it.each(['admin', 'guest', 'agent', 'reader'] as Who[])('[R2] replays exactly the missed events %s may see, in order, then live ones', async (who) => {
    t = await startTestGateway();
    const admin = await t.connect('admin');
    const guest = await t.connect('guest');
    const agent = await t.connect('agent', { clientId: 'agent-main' });
    const agent2 = await t.connect('agent2');
    const { session: own } = await guest.call('sessions.create', {});
    const { session: foreign } = await admin.call('sessions.create', {});
    await agent.call('agent.subscribe', { sessionKey: own.key });
    // A twin that stays connected sees what the resumed one missed.
    const twin = await t.connect(who, who === 'agent' ? { clientId: 'agent-main' } : {});
    const leaving = await t.connect(who, who === 'agent' ? { clientId: 'agent-main' } : {});
    const cursor = leaving.hello!.snapshot.cursor;
    await leaving.close();
    await leaving.waitClose();

    await guest.call('chat.send', { sessionKey: own.key, message: 'in own', idempotencyKey: 'resume-key-1' });
    await admin.call('chat.send', { sessionKey: foreign.key, message: 'in foreign', idempotencyKey: 'resume-key-2' });
    const q1 = await agent.call('question.request', { sessionKey: own.key, mode: 'async', questions: [item()] });
    await agent.call('question.request', { sessionKey: own.key, mode: 'async', privileged: true, questions: [item()] });
    await agent2.call('question.request', { questions: [item()] });
    await agent.call('question.request', { sessionKey: foreign.key, questions: [item()] });
    await guest.call('question.resolve', { id: q1.id, answers: { env: ['Staging'] } });
    const { runId } = await agent.call('run.start', { sessionKey: own.key });
    await agent.call('chat.inject', { runId, text: 'ok', state: 'final' });
    // The twin has everything of the above that it may see.
    await laterCommit(admin, [twin]);

    const back = await t.open();
    const res = await back.connect(`token-of-${who}-0123456789`, { resume: { cursor }, ...(who === 'agent' ? { clientId: 'agent-main' } : {}) });
    expect(res.ok).toBe(true);
    expect(back.hello!.resumed).toBe(true);
    const missed = seqs(twin, cursor);
    expect(missed.length, 'the twin saw something').toBeGreaterThan(0);
    const last = twin.seqEvents().at(-1)!.seq;
    await back.until(() => back.seqEvents().find((e) => e.seq === last), undefined, 'the replay');
    expect(seqs(back)).toEqual(missed);
    // Replay comes right after hello-ok, before anything live.
    await admin.call('sessions.create', { title: 'after' });
    await laterCommit(admin, [back, twin]);
    expect(seqs(back)).toEqual(seqs(twin, cursor));
  });

  it('[R2] a cursor older than what is kept answers resumed:false and replays nothing', async () => {
    t = await startTestGateway();
    const admin = await t.connect('admin');
    const cursor = admin.hello!.snapshot.cursor;
    for (let i = 0; i < 3; i++) await admin.call('sessions.create', { title: `s${i}` });
    await t.gw.store.pruneEvents(Date.now() + 1000, 1);
    const back = await t.open();
    await back.connect('token-of-admin-0123456789', { resume: { cursor } });
    expect(back.hello!.resumed).toBe(false);
    expect(back.hello!.snapshot.sessions).toHaveLength(3);
    // Live events reach it from here on: the first one it gets is the barrier's, with nothing replayed before it.
    const barrier = await laterCommit(admin, [back]);
    expect(back.seqEvents().map((e) => e.seq)).toEqual([barrier]);
    // A cursor from the future (another database) cannot be resumed either.
    const future = await t.open();
    await future.connect('token-of-admin-0123456789', { resume: { cursor: 10_000_000 } });
    expect(future.hello!.resumed).toBe(false);
  });

  it('[R2] events are pruned periodically, keeping at least 10 000 and at least 24 h', async () => {
    const clock = new FakeClock();
    t = await startTestGateway({ clock, memory: true });
    const store = t.gw.store;
    const old = clock.now() - 48 * 3_600_000;
    for (let i = 0; i < KEEP_EVENTS + 500; i++) (await store.appendEvent({ event: 'tick', payload: { ts: 0 }, audience: { sessionKey: null }, atMs: old }));
    const latest = await store.latestSeq();
    clock.advance(10 * 60 * 1000);
    // The prune runs as a unit of work of its own, right after the timer fired.
    await expect.poll(() => store.oldestEventSeq()).toBe(latest - KEEP_EVENTS + 1);
    // The floor holds as new events arrive.
    for (let i = 0; i < 200; i++) (await store.appendEvent({ event: 'tick', payload: { ts: 0 }, audience: { sessionKey: null }, atMs: clock.now() }));
    clock.advance(10 * 60 * 1000);
    await expect.poll(async () => (await store.latestSeq()) - (await store.oldestEventSeq()) + 1).toBe(KEEP_EVENTS);
  });

  it('[C6][R2] an agent client that reconnects gets the user messages it missed in its subscribed sessions', async () => {
    t = await startTestGateway();
    const admin = await t.connect('admin');
    const { session } = await admin.call('sessions.create', {});
    const agent = await t.connect('agent', { clientId: 'demo-agent' });
    await agent.call('agent.subscribe', { sessionKey: session.key });
    const cursor = (await t.connect('admin')).hello!.snapshot.cursor;
    agent.close();
    await agent.waitClose();
    await admin.call('chat.send', { sessionKey: session.key, message: 'while you were away', idempotencyKey: 'away-key-1' });
    const back = await t.open();
    await back.connect('token-of-agent-0123456789', { clientId: 'demo-agent', resume: { cursor } });
    const chat = await back.waitEvent('chat');
    expect(chat.message.text).toBe('while you were away');
  });
});
