import { describe, expect, it } from 'vitest';
import { createMemoryStore } from '../store/memory.ts';
import type { Store } from '../store/types.ts';
import { failure, item, gatewayPerTest } from '../../testing/gateway-harness.ts';
import { laterCommit } from '../../testing/barrier.ts';

// R1/R3/Q8/Q11: many requests committed in one turn.
const gateway = gatewayPerTest();
const setup = gateway.withSession;

describe('many requests in one turn (group commit)', () => {
  it('[R1][R3][Q11] each is kept or refused on its own, and every event reaches each operator once, in seq order', async () => {
    const { agent, admin } = await setup();
    const sessions: string[] = [];
    for (let i = 0; i < 8; i++) sessions.push((await admin.call('sessions.create', { title: `s${i}` })).session.key);
    // Sent without yielding, so the gateway reads them together and handles them in one turn.
    const asked = sessions.map((sessionKey) => agent.call('question.request', { sessionKey, questions: [item()] }));
    const refused = [
      failure(agent.call('question.request', { sessionKey: sessions[0], questions: [item()] })),
      failure(agent.call('question.request', { sessionKey: 'no-such-session', questions: [item()] })),
    ];
    const ids = (await Promise.all(asked)).map((r) => r.id);
    expect((await Promise.all(refused)).map((e) => e.code)).toEqual(['QUESTION_PENDING', 'SESSION_NOT_FOUND']);
    await admin.until(() => (admin.eventsNamed('question.requested').length >= 8 ? true : undefined));

    const waits = ids.map((id) => agent.call('question.waitAnswer', { id }));
    const resolved = ids.map((id) => admin.call('question.resolve', { id, answers: { env: ['Staging'] } }));
    expect((await Promise.all(resolved)).map((r) => r.status)).toEqual(ids.map(() => 'answered'));
    expect((await Promise.all(waits)).map((r) => r.status)).toEqual(ids.map(() => 'answered'));
    await admin.until(() => (admin.eventsNamed('question.resolved').length >= 8 ? true : undefined));
    await laterCommit(admin, [agent]);

    for (const client of [admin, agent]) {
      const seqs = client.seqEvents().map((e) => e.seq!);
      expect(seqs, 'strictly increasing, so none twice').toEqual([...seqs].sort((a, b) => a - b).filter((s, i, all) => i === 0 || s !== all[i - 1]));
      expect(client.eventsNamed('question.requested').map((e) => e.question.id).sort()).toEqual([...ids].sort());
      expect(client.eventsNamed('question.resolved').map((e) => e.id).sort()).toEqual([...ids].sort());
    }
    const stored = (await admin.call('question.list', {})).questions;
    expect(stored.map((q) => [q.id, q.status]).sort()).toEqual(ids.map((id) => [id, 'answered']).sort());
  });

  it('[Q8] a requester has the events of its change by the time the change is answered', async () => {
    const { agent, admin, session } = await setup();
    const { id } = await agent.call('question.request', { sessionKey: session.key, questions: [item()] });
    expect(agent.eventsNamed('question.requested').map((e) => e.question.id)).toEqual([id]);
    await admin.call('question.resolve', { id, answers: { env: ['Staging'] } });
    expect(admin.eventsNamed('question.resolved').map((e) => e.id)).toEqual([id]);
  });

  it('[R3] when the turn cannot be saved, its requests answer UNAVAILABLE (retryable), nothing is kept, and a retry works', async () => {
    const inner = createMemoryStore();
    let failCommit = false;
    const store: Store = {
      ...inner,
      commitGroup: async () => {
        if (failCommit) throw new Error('disk I/O error');
        await inner.commitGroup();
      },
    };
    const { agent, admin, session } = await setup({ store });
    failCommit = true;
    const err = await failure(agent.call('question.request', { sessionKey: session.key, questions: [item()] }));
    expect(err.code).toBe('UNAVAILABLE');
    expect(err.retryable).toBe(true);
    failCommit = false;
    gateway.t.logs.length = 0;
    expect((await admin.call('question.list', {})).questions).toEqual([]);
    expect(admin.eventsNamed('question.requested')).toEqual([]);
    const { id } = await agent.call('question.request', { sessionKey: session.key, questions: [item()] });
    expect((await admin.call('question.get', { id })).question.status).toBe('pending');
    await gateway.t.close();
    await inner.close();
  });
});
