import { afterEach, describe, expect, it } from 'vitest';
import type { RouteState } from '../../protocol/index.ts';
import { item, startTestGateway, type TestGateway } from '../../testing/gateway-harness.ts';
import { FakeClock } from '../../testing/fake-clock.ts';
import { connectPerson, routingConfig } from '../../testing/routing-gateway.ts';

let t: TestGateway | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const drafted = (route: RouteState | undefined) => route?.handoffs?.map((h) => h.drafts ?? null);

async function handedOffToCy() {
  t = await startTestGateway({ config: routingConfig, clock: new FakeClock() });
  const admin = await t.connect('admin');
  const agent = await t.connect('agent', { clientId: 'agent-client' });
  const [ana, bo, cy] = await Promise.all([connectPerson(t, 'ana'), connectPerson(t, 'bo'), connectPerson(t, 'cy')]);
  const { session } = await admin.call('sessions.create', { title: 'Deploys' });
  const { id } = await agent.call('question.request', { sessionKey: session.key, questions: [item()], timeoutMs: 3_600_000 });
  const cursor = (await t.connect('admin')).hello?.snapshot.cursor ?? 0;
  const { route } = await ana.call('question.handoff', { id, to: 'identity:cy', note: 'yours', drafts: { env: ['Production'] } });
  return { t, admin, agent, ana, bo, cy, id, route, cursor };
}

describe('hand-off drafts reach the hand-off\'s targets alone (E6, E11)', () => {
  it('[E6][E11] the target reads the drafts in the event, question.get, question.list and its snapshot; the sender, other viewers and admins do not', async () => {
    const { t, admin, ana, bo, cy, id, route } = await handedOffToCy();
    expect(drafted(route)).toEqual([null]);
    expect(drafted((await cy.waitEvent('question.routed', (p) => p.id === id && !!p.route.handoffs)).route)).toEqual([{ env: ['Production'] }]);
    for (const other of [ana, bo, admin]) expect(drafted((await other.waitEvent('question.routed', (p) => p.id === id && !!p.route.handoffs)).route)).toEqual([null]);
    expect(drafted((await cy.call('question.get', { id })).question.route)).toEqual([{ env: ['Production'] }]);
    expect(drafted((await bo.call('question.get', { id })).question.route)).toEqual([null]);
    expect(drafted((await admin.call('question.list', { status: 'pending' })).questions[0].route)).toEqual([null]);
    expect(drafted((await cy.call('question.list', { status: 'pending' })).questions[0].route)).toEqual([{ env: ['Production'] }]);
    const [cyAgain, boAgain] = await Promise.all([connectPerson(t, 'cy'), connectPerson(t, 'bo')]);
    expect(drafted(cyAgain.hello?.snapshot.pendingQuestions[0].route)).toEqual([{ env: ['Production'] }]);
    expect(drafted(boAgain.hello?.snapshot.pendingQuestions[0].route)).toEqual([null]);
  });

  it('[E6][E8] the asking agent never reads them: not live, not in a replay, not in the answer it waits for', async () => {
    const { t, agent, cy, id, cursor } = await handedOffToCy();
    expect(drafted((await agent.waitEvent('question.routed', (p) => p.id === id && !!p.route.handoffs)).route)).toEqual([null]);
    const replayed = await t.connect('admin', { resume: { cursor } });
    expect(drafted((await replayed.waitEvent('question.routed', (p) => p.id === id && !!p.route.handoffs)).route)).toEqual([null]);
    await cy.call('question.resolve', { id, answers: { env: ['Staging'] } });
    expect(drafted((await agent.call('question.waitAnswer', { id })).route)).toEqual([null]);
  });
});
