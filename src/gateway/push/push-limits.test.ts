import webpush from 'web-push';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PUSH_SUBSCRIPTIONS_PER_IDENTITY } from '../../protocol/index.ts';
import { failure, item, startTestGateway, testConfig, tokenOf, type TestGateway } from '../../testing/gateway-harness.ts';
import { Authenticator } from '../auth.ts';
import type { GatewayConfig } from '../config.ts';
import { FAILURES_BEFORE_DROP } from './subscriptions.ts';
import { FakePushService } from '../../testing/fake-push-service.ts';

let t: TestGateway | undefined;
let fake: FakePushService | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await t?.close();
  await fake?.close();
  t = fake = undefined;
});

async function setup(config: GatewayConfig = testConfig, dir?: string) {
  fake ??= await FakePushService.start();
  t = await startTestGateway({ pushAllowedEndpoints: [fake.origin], config, ...(dir ? { dir } : {}) });
  const admin = await t.connect('admin');
  const agent = await t.connect('agent');
  const { session } = await admin.call('sessions.create', { title: 'Work' });
  return { t, fake, admin, agent, sessionKey: session.key };
}

const without = (id: string): GatewayConfig => ({ identities: testConfig.identities.filter((i) => i.id !== id) });
const rotated = (id: string): GatewayConfig => ({
  identities: testConfig.identities.map((i) => (i.id === id ? { ...i, token: `${tokenOf('admin')}-rotated` } : i)),
});

describe('U17/S5 push limits', () => {
  it('[S5][U17] a question with many subscriptions runs at most one or two encryptions per event-loop turn, and every one is sent', async () => {
    const { t, fake, agent, sessionKey } = await setup();
    // Stored directly, past the cap, as a store from before the cap may hold them.
    const tag = new Authenticator(testConfig).pushTokenTag('admin')!;
    const many = 60;
    for (let i = 0; i < many; i++) {
      const s = fake.subscriber(`device-${i}`).toJSON();
      await t.gw.store.putPushSubscription({ endpoint: s.endpoint, identity: 'admin', tokenHash: tag, ...s.keys, createdAtMs: i });
    }
    let turn = 0;
    let ticking = true;
    const tick = () => {
      turn++;
      if (ticking) setImmediate(tick);
    };
    tick();
    const perTurn = new Map<number, number>();
    const real = webpush.generateRequestDetails.bind(webpush);
    vi.spyOn(webpush, 'generateRequestDetails').mockImplementation((...args) => {
      perTurn.set(turn, (perTurn.get(turn) ?? 0) + 1);
      return real(...args);
    });
    await agent.call('question.request', { sessionKey, mode: 'async', questions: [item()] });
    await expect.poll(() => fake.received.length, { timeout: 60_000 }).toBe(many);
    await t.gw.push.idle();
    ticking = false;
    expect([...perTurn.values()].reduce((a, b) => a + b, 0)).toBe(many);
    expect(Math.max(...perTurn.values())).toBeLessThanOrEqual(2);
    expect(fake.problems).toEqual([]);
  });

  it(`[U17] an identity keeps ${PUSH_SUBSCRIPTIONS_PER_IDENTITY} devices: the 6th subscription drops the oldest, which gets no more pushes`, async () => {
    const { t, fake, admin, agent, sessionKey } = await setup();
    const ids: string[] = [];
    for (let i = 1; i <= 6; i++) ids.push((await admin.call('push.subscribe', { subscription: fake.subscriber(`d${i}`).toJSON() })).id);
    const { subscriptions } = await admin.call('push.list', {});
    expect(subscriptions.map((s) => s.id)).toEqual(ids.slice(1));
    expect(subscriptions.every((s) => s.service === fake.origin)).toBe(true);
    await agent.call('question.request', { sessionKey, mode: 'async', questions: [item()] });
    await expect.poll(() => fake.received.length).toBe(5);
    await t.gw.push.idle();
    expect(fake.to('d1')).toEqual([]);
  });

  it("[U17][A3] push.list shows only the caller's devices, without endpoints or keys; another identity's id is not found", async () => {
    const { t, fake, admin } = await setup();
    const guest = await t.connect('guest');
    const phone = fake.subscriber('admin-phone').toJSON();
    const { id } = await admin.call('push.subscribe', { subscription: phone });
    await guest.call('push.subscribe', { subscription: fake.subscriber('guest-phone').toJSON() });
    const listed = await admin.call('push.list', {});
    expect(listed.subscriptions.map((s) => s.id)).toEqual([id]);
    expect(JSON.stringify(listed)).not.toContain('/push/');
    expect(JSON.stringify(listed)).not.toContain(phone.keys.p256dh);
    expect(JSON.stringify(listed)).not.toContain(phone.keys.auth);
    expect((await guest.call('push.list', {})).subscriptions.map((s) => s.id)).not.toContain(id);

    const refused = await failure(guest.call('push.unsubscribe', { id }));
    expect(refused.code).toBe('PUSH_SUBSCRIPTION_NOT_FOUND');
    const unknown = await failure(guest.call('push.unsubscribe', { id: 'ps_nothing' }));
    expect([unknown.code, unknown.message.replace('ps_nothing', id)]).toEqual([refused.code, refused.message]);
    expect((await admin.call('push.list', {})).subscriptions).toHaveLength(1);

    expect(await admin.call('push.unsubscribe', { id })).toEqual({ unsubscribed: true });
    expect((await admin.call('push.list', {})).subscriptions).toEqual([]);
    const both = await failure(admin.call('push.unsubscribe', { id, endpoint: phone.endpoint }));
    expect([both.code, both.message]).toEqual(['INVALID_REQUEST', expect.stringContaining('exactly one of endpoint and id')]);
  });

  it("[U17] push.subscribe with another identity's endpoint is refused (PUSH_ENDPOINT_TAKEN); the device stays its owner's", async () => {
    const { t, fake, admin, agent, sessionKey } = await setup();
    const guest = await t.connect('guest');
    const phone = fake.subscriber('phone').toJSON();
    await admin.call('push.subscribe', { subscription: phone });
    const err = await failure(guest.call('push.subscribe', { subscription: phone }));
    expect(err.code).toBe('PUSH_ENDPOINT_TAKEN');
    expect(err.message).toContain('subscription.endpoint');
    expect((await guest.call('push.list', {})).subscriptions).toEqual([]);
    await agent.call('question.request', { sessionKey, mode: 'async', questions: [item()] });
    await expect.poll(() => fake.to('phone').length).toBe(1);
  });

  it(`[U17][S5] an endpoint whose pushes are given up ${FAILURES_BEFORE_DROP} times in a row is dropped, not only on 404/410`, async () => {
    const { t, fake, admin, agent, sessionKey } = await setup();
    await admin.call('push.subscribe', { subscription: fake.subscriber('broken').toJSON() });
    fake.script('broken', ...Array.from({ length: FAILURES_BEFORE_DROP }, () => ({ status: 400 })));
    for (let i = 1; i <= FAILURES_BEFORE_DROP; i++) {
      expect((await admin.call('push.list', {})).subscriptions).toHaveLength(1);
      await agent.call('question.request', { sessionKey, mode: 'async', questions: [item({ id: `q${i}` })] });
      await expect.poll(() => fake.requests.length).toBe(i);
      await t.gw.push.idle();
    }
    expect((await admin.call('push.list', {})).subscriptions).toEqual([]);
    await agent.call('question.request', { sessionKey, mode: 'async', questions: [item({ id: 'after' })] });
    await t.gw.push.idle();
    expect(fake.requests).toHaveLength(FAILURES_BEFORE_DROP);
  });

  for (const [what, config, who] of [
    ['its token was rotated', rotated('admin'), 'admin'],
    ['its identity was removed from the config', without('questions'), 'questions'],
  ] as const) {
    it(`[U17] a subscription gets nothing after a restart once ${what}, and is ended`, async () => {
      const first = await setup();
      const watcher = await first.t.connect('questions');
      await watcher.call('push.subscribe', { subscription: first.fake.subscriber('questions-phone').toJSON() });
      await first.admin.call('push.subscribe', { subscription: first.fake.subscriber('admin-phone').toJSON() });
      const dir = first.t.dir;
      await first.t.close({ keepDir: true });
      t = await startTestGateway({ pushAllowedEndpoints: [first.fake.origin], config, dir });
      const agent = await t.connect('agent');
      const stayed = who === 'admin' ? 'questions-phone' : 'admin-phone';
      const gone = `${who}-phone`;
      const sessionKey = (await t.gw.store.listSessions())[0].key;
      await agent.call('question.request', { sessionKey, mode: 'async', questions: [item()] });
      await expect.poll(() => first.fake.to(stayed).length).toBe(1);
      await t.gw.push.idle();
      expect(first.fake.requests.filter((r) => r.subscription === gone)).toEqual([]);
      expect((await t.gw.store.listPushSubscriptions()).map((s) => s.identity)).toEqual([who === 'admin' ? 'questions' : 'admin']);
    });
  }
});
