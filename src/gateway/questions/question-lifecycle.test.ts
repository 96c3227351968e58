import { describe, expect, it } from 'vitest';
import { createMemoryStore } from '../store/memory.ts';
import { FakeClock } from '../../testing/fake-clock.ts';
import { item, startTestGateway, gatewayPerTest } from '../../testing/gateway-harness.ts';
import { laterCommit } from '../../testing/barrier.ts';
import { readsSeeEarlierChanges } from '../../testing/concurrent-requests.ts';

const gateway = gatewayPerTest();

const setup = gateway.withSession;

describe('expiry and cancellation', () => {
  it('[Q7] expires at expiresAtMs with nobody waiting, and says so in an event', async () => {
    const clock = new FakeClock();
    const { agent, admin } = await setup({ clock });
    const { id, expiresAtMs } = await agent.call('question.request', { questions: [item()], timeoutMs: 30_000 });
    clock.advance(29_999);
    await laterCommit(admin);
    expect((await admin.call('question.get', { id })).question.status).toBe('pending');
    clock.advance(1);
    const ev = await admin.waitEvent('question.resolved', (e) => e.id === id);
    expect(ev.status).toBe('expired');
    expect(clock.now()).toBe(expiresAtMs);
    expect(await agent.call('question.waitAnswer', { id })).toEqual({ status: 'expired' });
  });

  it('[Q7] a waiting asker learns of the expiry', async () => {
    const clock = new FakeClock();
    const { agent } = await setup({ clock });
    const { id } = await agent.call('question.request', { questions: [item()], timeoutMs: 30_000 });
    // A time limit of its own far past the expiry: its timer is set once the wait is in place.
    const wait = agent.call('question.waitAnswer', { id, timeoutMs: 600_000 });
    await clock.timerSet(clock.now() + 600_000);
    clock.advance(30_000);
    expect(await wait).toEqual({ status: 'expired' });
  });

  it('[Q7] expiry keeps working for questions asked later with earlier deadlines', async () => {
    const clock = new FakeClock();
    const { agent, admin } = await setup({ clock });
    const late = await agent.call('question.request', { questions: [item()], timeoutMs: 600_000 });
    const early = await agent.call('question.request', { questions: [item()], timeoutMs: 40_000 });
    clock.advance(40_000);
    await admin.waitEvent('question.resolved', (e) => e.id === early.id);
    expect((await admin.call('question.get', { id: late.id })).question.status).toBe('pending');
    clock.advance(560_000);
    await admin.waitEvent('question.resolved', (e) => e.id === late.id && e.status === 'expired');
  });

  it('[Q7] run.end of the asking run cancels its pending blocking questions with reason run-ended', async () => {
    const { agent, admin, session } = await setup();
    const { runId } = await agent.call('run.start', { sessionKey: session.key });
    const { id } = await agent.call('question.request', { runId, questions: [item()] });
    const other = await agent.call('question.request', { questions: [item()] });
    const wait = agent.call('question.waitAnswer', { id });
    await agent.call('run.end', { runId, stopReason: 'tool_use' });
    expect(await wait).toEqual({ status: 'cancelled', reason: 'run-ended' });
    const ev = await admin.waitEvent('question.resolved', (e) => e.id === id);
    expect(ev).toMatchObject({ status: 'cancelled', reason: 'run-ended' });
    expect((await admin.call('question.get', { id: other.id })).question.status).toBe('pending');
  });

  it('[Q7] the asking client staying away 30 s cancels its pending blocking questions (requester-inactive)', async () => {
    const clock = new FakeClock();
    const { agent, admin } = await setup({ clock });
    const { id } = await agent.call('question.request', { questions: [item()] });
    const asyncQ = await agent.call('question.request', { mode: 'async', questions: [item()] });
    agent.close();
    await agent.waitClose();
    await clock.timerSet(clock.now() + 30_000); // the requester grace has started
    clock.advance(29_999);
    await laterCommit(admin);
    expect((await admin.call('question.get', { id })).question.status).toBe('pending');
    clock.advance(1);
    const ev = await admin.waitEvent('question.resolved', (e) => e.id === id);
    expect(ev).toMatchObject({ status: 'cancelled', reason: 'requester-inactive' });
    expect((await admin.call('question.get', { id: asyncQ.id })).question.status).toBe('pending');
  });

  it('[Q7] a reconnect with the same client id within the grace period keeps the question waiting', async () => {
    const clock = new FakeClock();
    const { agent, admin } = await setup({ clock });
    const { id } = await agent.call('question.request', { questions: [item()] });
    agent.close();
    await agent.waitClose();
    await clock.timerSet(clock.now() + 30_000); // the requester grace has started
    clock.advance(20_000);
    const back = await gateway.t.connect('agent', { clientId: 'agent-client' });
    clock.advance(60_000);
    await laterCommit(admin);
    expect((await admin.call('question.get', { id })).question.status).toBe('pending');
    // A different client id of the same identity does not count.
    back.close();
    await back.waitClose();
    await clock.timerSet(clock.now() + 30_000); // the requester grace has started
    await gateway.t.connect('agent', { clientId: 'someone-else' });
    clock.advance(30_000);
    await admin.waitEvent('question.resolved', (e) => e.id === id && e.reason === 'requester-inactive');
  });

  it('[Q7] on gateway start, pending blocking questions start the grace period and expired ones expire', async () => {
    const store = createMemoryStore();
    const clock = new FakeClock();
    const first = await startTestGateway({ store, clock });
    const asker = await first.connect('agent', { clientId: 'agent-client' });
    const kept = await asker.call('question.request', { questions: [item()] });
    const dropped = await asker.call('question.request', { questions: [item()] });
    const expiring = await asker.call('question.request', { questions: [item()], timeoutMs: 30_000 });
    await first.close();
    clock.advance(31_000);
    const t = await gateway.start({ store, clock });
    const admin = await t.connect('admin');
    expect((await admin.call('question.get', { id: expiring.id })).question.status).toBe('expired');
    clock.advance(10_000);
    const back = await t.connect('agent', { clientId: 'agent-client' });
    await back.call('question.resolve', { id: dropped.id, cancel: true });
    clock.advance(30_000);
    await laterCommit(admin);
    expect((await admin.call('question.get', { id: kept.id })).question.status).toBe('pending');
    back.close();
    await back.waitClose();
    await clock.timerSet(clock.now() + 30_000); // the requester grace has started
    clock.advance(30_000);
    await admin.waitEvent('question.resolved', (e) => e.id === kept.id && e.reason === 'requester-inactive');
    await t.close();
    store.close();
  });

  it('[Q7] with nobody back, the grace period that starts with the gateway ends in requester-inactive', async () => {
    const store = createMemoryStore();
    const clock = new FakeClock();
    const first = await startTestGateway({ store, clock });
    const asker = await first.connect('agent', { clientId: 'gone-for-good' });
    const { id } = await asker.call('question.request', { questions: [item()] });
    await first.close();
    const t = await gateway.start({ store, clock });
    const admin = await t.connect('admin');
    clock.advance(30_000);
    await admin.waitEvent('question.resolved', (e) => e.id === id && e.reason === 'requester-inactive');
    await t.close();
    store.close();
  });

  it('[Q7] requesterGraceMs is an option', async () => {
    const clock = new FakeClock();
    const { agent, admin } = await setup({ clock, requesterGraceMs: 1000 });
    const { id } = await agent.call('question.request', { questions: [item()] });
    agent.close();
    await agent.waitClose();
    await clock.timerSet(clock.now() + 1000); // the requester grace has started
    clock.advance(1000);
    await admin.waitEvent('question.resolved', (e) => e.id === id && e.reason === 'requester-inactive');
  });
});

describe('events', () => {
  it('[Q8] question.requested and question.resolved reach a watching operator with increasing seq', async () => {
    const { agent, admin, session } = await setup();
    const { id } = await agent.call('question.request', { sessionKey: session.key, questions: [item()] });
    const requested = await admin.waitEvent('question.requested', (e) => e.question.id === id);
    expect(requested.question).toMatchObject({ id, status: 'pending', askedBy: 'agent', sessionKey: session.key });
    await admin.call('question.resolve', { id, answers: { env: ['Staging'] } });
    const resolved = await admin.waitEvent('question.resolved', (e) => e.id === id);
    expect(resolved).toMatchObject({ id, sessionKey: session.key, status: 'answered', answers: { env: ['Staging'] }, resolvedBy: { identity: 'admin' } });
    expect(resolved.seq!).toBeGreaterThan(requested.seq!);
    const updated = await admin.waitEvent('session.updated', (e) => e.session.key === session.key && e.session.pendingQuestions === 1);
    expect(updated.seq!).toBeGreaterThan(requested.seq! - 1);
  });
});

describe('requests sent without waiting for answers', () => {
  it('[Q4][Q5] a poll sent right after a cancel reads it cancelled, a get right after an answer reads it answered, and a long wait holds up nothing (SQLite)', async () => {
    await readsSeeEarlierChanges(await gateway.start());
  });

  it('[Q4][Q5] the same on the memory store', async () => {
    await readsSeeEarlierChanges(await gateway.start({ memory: true }));
  });
});
