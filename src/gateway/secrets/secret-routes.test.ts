import { afterEach, describe, expect, it } from 'vitest';
import type { GatewayConfig } from '../config.ts';
import { FakeClock } from '../../testing/fake-clock.ts';
import { failure, startTestGateway, type TestGateway } from '../../testing/gateway-harness.ts';
import { connectPerson, personToken, routingConfig } from '../../testing/routing-gateway.ts';

let t: TestGateway | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const MIN = 60_000;
const VALUE = 'sk-live-ROUTEDvalue4Jq81NxPw6Tz2Lm9Vc3';

/** Secret requests go to Ana, then after 5 minutes to the ops group (Bo and Cy); after 10 more they expire. */
const config: GatewayConfig = {
  ...routingConfig,
  routing: {
    groups: { ops: { members: ['bo', 'cy'] } },
    escalations: {
      keys: { steps: [{ notify: ['identity:ana'], wait: '5m' }, { notify: ['group:ops'], wait: '10m' }] },
      team: { steps: [{ notify: ['identity:cy'], wait: '5m' }], exhausted: 'keep' },
    },
    routes: [
      { match: { kind: ['secret'] }, escalation: 'keys' },
      { match: { kind: ['question'] }, escalation: 'team' },
    ],
  },
};

async function setup(clock = new FakeClock(), dir?: string) {
  t = await startTestGateway({ config, clock, ...(dir ? { dir } : {}) });
  const admin = await t.connect('admin');
  const agent = await t.connect('agent');
  const [ana, bo] = await Promise.all([connectPerson(t, 'ana'), connectPerson(t, 'bo')]);
  return { clock, admin, agent, ana, bo };
}

async function ask(s: Awaited<ReturnType<typeof setup>>, timeoutMs = 3_600_000) {
  const { session } = await s.admin.call('sessions.create', { title: 'Keys' });
  const { id } = await s.agent.call('secret.request', { name: 'STRIPE_KEY', description: 'To charge the test card', sessionKey: session.key, timeoutMs });
  return id;
}

const status = async (s: Awaited<ReturnType<typeof setup>>, id: string) => (await s.admin.call('secret.list', {})).requests.find((r) => r.id === id);

describe('routed secret requests (E1, E2, E3, E11, E12 for K1)', () => {
  it('[E1][E11][K1] a `kind: "secret"` route is chosen at secret.request: its first step is on the request every operator sees', async () => {
    const s = await setup();
    const id = await ask(s);
    const { request } = await s.bo.waitEvent('secret.requested', (p) => p.request.id === id);
    expect(request.route).toEqual({ escalation: 'keys', step: 0, notified: ['ana'], stepReached: ['ana'], eligible: ['ana'], nextAtMs: s.clock.now() + 5 * MIN, names: { ana: 'Ana' } });
    expect((await s.ana.call('secret.list', { status: 'pending' })).requests.find((r) => r.id === id)?.route).toMatchObject({ step: 0, notified: ['ana'] });
  });

  it('[E12][E3][K1] a provider the request does not wait for is refused with who it waits for, and it stays pending; the one notified provides it', async () => {
    const s = await setup();
    const id = await ask(s);
    const waiting = s.agent.call('secret.waitResult', { id });
    const refused = await failure(s.bo.call('secret.provide', { id, value: VALUE }));
    expect(refused.code).toBe('FORBIDDEN');
    expect(refused.details).toEqual({ eligible: ['ana'] });
    expect(JSON.stringify(refused)).not.toContain(VALUE);
    // A skip is an answer too.
    expect((await failure(s.bo.call('secret.provide', { id, skip: true }))).details).toEqual({ eligible: ['ana'] });
    expect((await status(s, id))?.status).toBe('pending');
    expect(await s.ana.call('secret.provide', { id, value: VALUE })).toEqual({ status: 'stored', name: 'STRIPE_KEY' });
    expect(await waiting).toEqual({ status: 'stored', name: 'STRIPE_KEY' });
  });

  it('[E2][E11][K1] when the wait passes the next step is notified (secret.routed, no value) and may provide it; admins always may', async () => {
    const s = await setup();
    const id = await ask(s);
    s.clock.advance(5 * MIN);
    const routed = await s.bo.waitEvent('secret.routed', (p) => p.id === id);
    expect(routed.route).toMatchObject({ step: 1, notified: ['ana', 'bo', 'cy'], eligible: ['ana', 'bo', 'cy'], nextAtMs: s.clock.now() + 10 * MIN });
    // E9: each person it waits for by display name, on the route every view gets.
    expect(routed.route.names).toEqual({ ana: 'Ana', bo: 'Bo', cy: 'Cy' });
    expect((await status(s, id))?.route?.names).toEqual({ ana: 'Ana', bo: 'Bo', cy: 'Cy' });
    expect(routed.notify).toEqual(['bo', 'cy']);
    expect(await s.bo.call('secret.provide', { id, value: VALUE })).toEqual({ status: 'stored', name: 'STRIPE_KEY' });
    for (const c of [s.admin, s.ana, s.bo]) expect(JSON.stringify(c.eventsNamed('secret.routed'))).not.toContain(VALUE);
    // E12: an admin is eligible without being listed.
    const other = await ask(s);
    expect(await s.admin.call('secret.provide', { id: other, skip: true })).toEqual({ status: 'skipped', name: 'STRIPE_KEY' });
  });

  it('[E2][K1] when the steps run out (`exhausted` defaults to expire) the request ends expired with reason escalation-exhausted', async () => {
    const s = await setup();
    const id = await ask(s);
    const waiting = s.agent.call('secret.waitResult', { id });
    s.clock.advance(5 * MIN);
    await s.ana.waitEvent('secret.routed', (p) => p.id === id && p.route.step === 1);
    s.clock.advance(10 * MIN);
    expect(await waiting).toEqual({ status: 'expired', name: 'STRIPE_KEY' });
    expect(await status(s, id)).toMatchObject({ status: 'expired', reason: 'escalation-exhausted' });
  });

  it('[E2][D3][K1] a step whose deadline passed while the gateway was down runs when it starts again', async () => {
    const clock = new FakeClock();
    const first = await setup(clock);
    const id = await ask(first);
    const dir = t!.dir;
    await t!.close({ keepDir: true });
    t = undefined;
    clock.advance(6 * MIN);
    const s = await setup(clock, dir);
    await expect.poll(async () => (await status(s, id))?.route?.step).toBe(1);
    expect((await status(s, id))?.route).toMatchObject({ notified: ['ana', 'bo', 'cy'] });
    expect(await s.bo.call('secret.provide', { id, skip: true })).toEqual({ status: 'skipped', name: 'STRIPE_KEY' });
  });

  it('[E7][K1] secret.resolved says who provided or skipped it and where (the connection\'s surface; never the value), to those who may see the request only', async () => {
    const s = await setup();
    const tui = await t!.open();
    expect((await tui.connect(personToken('ana'), { mode: 'tui' })).ok).toBe(true);
    // The guest may write sessions and the other agent asks too; neither may see this request (A3, A6).
    const [guest, agent2] = await Promise.all([t!.connect('guest'), t!.connect('agent2')]);
    const id = await ask(s);
    expect(await tui.call('secret.provide', { id, value: VALUE })).toEqual({ status: 'stored', name: 'STRIPE_KEY' });
    const atMs = s.clock.now();
    const by = { identity: 'ana', name: 'Ana', surface: 'tui', atMs };
    for (const c of [s.admin, s.agent, s.bo]) {
      const heard = await c.waitEvent('secret.resolved', (p) => p.id === id);
      expect(heard).toMatchObject({ id, name: 'STRIPE_KEY', status: 'stored', resolvedBy: by });
      expect(JSON.stringify(heard)).not.toContain(VALUE);
    }
    expect((await status(s, id))?.resolvedBy).toEqual(by);
    // An admin's skip from a plain connection names the connection's surface, as an answer does.
    const other = await ask(s);
    await s.admin.call('secret.provide', { id: other, skip: true });
    expect(await s.bo.waitEvent('secret.resolved', (p) => p.id === other)).toMatchObject({ status: 'skipped', resolvedBy: { identity: 'admin', surface: 'cli', atMs } });
    expect([...guest.eventsNamed('secret.resolved'), ...agent2.eventsNamed('secret.resolved')]).toEqual([]);
  });
});

describe('routing.status lists routed secret requests (E9, E12 for K1)', () => {
  const secretsOf = async (c: Awaited<ReturnType<typeof setup>>['bo']) => (await c.call('routing.status', {})).secrets;

  it('[E12][E9][K1] each open routed secret request the caller may see, with its step, timer and who it waits for and goes to next, by display name', async () => {
    const s = await setup();
    const id = await ask(s);
    const sessionKey = (await status(s, id))?.sessionKey;
    expect(await secretsOf(s.bo)).toEqual([{ id, name: 'STRIPE_KEY', sessionKey, step: 0, nextAtMs: s.clock.now() + 5 * MIN, waitsFor: ['Ana'], next: ['ops'] }]);
    // A secret request is not a question: the questions stay as they were.
    expect((await s.bo.call('routing.status', {})).questions).toEqual([]);
    s.clock.advance(5 * MIN);
    await s.bo.waitEvent('secret.routed', (p) => p.id === id);
    expect(await secretsOf(s.ana)).toEqual([{ id, name: 'STRIPE_KEY', sessionKey, step: 1, nextAtMs: s.clock.now() + 10 * MIN, waitsFor: ['ops'] }]);
    await s.bo.call('secret.provide', { id, skip: true });
    expect(await secretsOf(s.ana)).toEqual([]);
  });

  it('[E9][K1] a step the request expires before is named as not reached, and there is no next', async () => {
    const s = await setup();
    const id = await ask(s, 4 * MIN);
    expect(await secretsOf(s.admin)).toEqual([expect.objectContaining({ id, waitsFor: ['Ana'], unreached: ['ops'] })]);
    expect((await secretsOf(s.admin))?.[0].next).toBeUndefined();
  });

  it('[A3][A4][E12][K1] whoever may not see the request gets nothing of it, not even a count: the guest whose session it docks in, a reader, a writer', async () => {
    const s = await setup();
    const [guest, reader, writer] = await Promise.all([t!.connect('guest'), t!.connect('reader'), t!.connect('writer')]);
    const { session } = await guest.call('sessions.create', { title: 'Guest keys' });
    const { id } = await s.agent.call('secret.request', { name: 'GUEST_KEY', description: 'For the guest run', sessionKey: session.key, timeoutMs: 3_600_000 });
    expect((await secretsOf(s.ana))?.map((r) => r.id)).toEqual([id]);
    s.clock.advance(5 * MIN);
    await s.bo.waitEvent('secret.routed', (p) => p.id === id);
    for (const c of [guest, reader, writer]) expect(await c.call('routing.status', {})).toEqual({ schedules: [], questions: [], secrets: [] });
  });
});
