import { afterEach, describe, expect, it } from 'vitest';
import { clusterPerTest } from '../../testing/gateway-cluster.ts';
import { failure, item, startTestGateway, testConfig, type TestGateway } from '../../testing/gateway-harness.ts';
import { FakePushService } from '../../testing/fake-push-service.ts';
import { endpointProblem } from './endpoints.ts';
import { FakeClock } from '../../testing/fake-clock.ts';
import { connectPerson, routingConfig } from '../../testing/routing-gateway.ts';
import { auditEntries } from '../../testing/audit-entries.ts';

let t: TestGateway | undefined;
let fake: FakePushService | undefined;
afterEach(async () => {
  await t?.close();
  await fake?.close();
  t = fake = undefined;
});

async function setup(pushRetry?: { attempts?: number; maxRetryDelayMs?: number }, over: Parameters<typeof startTestGateway>[0] = {}) {
  fake = await FakePushService.start();
  t = await startTestGateway({ pushAllowedEndpoints: [fake.origin], ...(pushRetry ? { pushRetry } : {}), ...over });
  const admin = await t.connect('admin');
  const agent = await t.connect('agent');
  const guest = await t.connect('guest');
  const { session } = await admin.call('sessions.create', { title: 'Work' });
  return { t, fake, admin, agent, guest, sessionKey: session.key };
}

describe('U17 Web Push', () => {
  it('[U17] one push per visible question per subscription, VAPID-signed and aes128gcm-encrypted, with what the notification shows and no more', async () => {
    const { t, fake, admin, agent, guest, sessionKey } = await setup();
    const { publicKey } = await admin.call('push.config', {});
    await admin.call('push.subscribe', { subscription: fake.subscriber('admin-phone').toJSON() });
    await admin.call('push.subscribe', { subscription: fake.subscriber('admin-laptop').toJSON() });
    // A guest sees no question of a session it did not create (A3).
    await guest.call('push.subscribe', { subscription: fake.subscriber('guest-phone').toJSON() });

    const askedAt = Date.now();
    const { id, expiresAtMs } = await agent.call('question.request', { sessionKey, questions: [item()], timeoutMs: 600_000 });
    await expect.poll(() => fake.received.length).toBe(2);
    await t.gw.push.idle();
    expect(fake.problems).toEqual([]);
    expect(fake.received.map((r) => r.subscription).sort()).toEqual(['admin-laptop', 'admin-phone']);
    for (const r of fake.received) {
      expect(r.vapidKey).toBe(publicKey);
      expect(r.payload).toStrictEqual({
        type: 'question',
        id,
        title: 'Environment',
        itemId: 'env',
        actions: ['Staging', 'Production'],
        path: `/q/${id}`,
        body: 'Where should it deploy?',
      });
      expect(r.urgency).toBe('high');
      // TTL: the question's time left when the push was sent, in seconds: at most what was left when it was asked (the
      // push went out later, however late this machine ran it).
      const ttl = Number(r.ttl);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(Math.ceil((expiresAtMs! - askedAt) / 1000));
    }
    expect(fake.to('guest-phone')).toEqual([]);

    // Resolved anywhere: a close instruction to every device that got it, none to the guest.
    await admin.call('question.resolve', { id, answers: { env: ['Staging'] } });
    await expect.poll(() => fake.received.length).toBe(4);
    await t.gw.push.idle();
    expect(fake.received.slice(2).map((r) => [r.subscription, r.payload]).sort()).toEqual([
      ['admin-laptop', { type: 'close', id }],
      ['admin-phone', { type: 'close', id }],
    ]);
    expect(fake.problems).toEqual([]);
  });

  it('[L1][U17] who a question was pushed to is an audit entry (surface push), naming each identity once and no one who may not see it', async () => {
    const { t, fake, admin, agent, guest, sessionKey } = await setup();
    await admin.call('push.subscribe', { subscription: fake.subscriber('admin-phone').toJSON() });
    await admin.call('push.subscribe', { subscription: fake.subscriber('admin-laptop').toJSON() });
    await guest.call('push.subscribe', { subscription: fake.subscriber('guest-phone').toJSON() });
    const { id } = await agent.call('question.request', { sessionKey, questions: [item()], timeoutMs: 600_000 });
    await expect.poll(() => fake.received.length).toBe(2);
    await t.gw.push.idle();
    const notified = async () => (await auditEntries(admin)).filter((e) => e.event === 'question.notified' && e.questionId === id);
    await expect.poll(async () => (await notified()).length).toBe(1);
    expect(await notified()).toMatchObject([{ surface: 'push', detail: { notified: 'admin' } }]);
  });

  it('[U17][A3] a privileged question reaches no subscription whose identity may not see it; an async one has no high urgency and no actions past two options', async () => {
    const { t, fake, admin, agent, guest } = await setup();
    const { session: own } = await guest.call('sessions.create', { title: 'Mine' });
    await guest.call('push.subscribe', { subscription: fake.subscriber('guest').toJSON() });
    await admin.call('push.subscribe', { subscription: fake.subscriber('admin').toJSON() });
    const secret = await agent.call('question.request', { sessionKey: own.key, privileged: true, questions: [item({ question: 'Rotate the root key?' })] });
    const three = item({ id: 'pick', options: [{ label: 'A' }, { label: 'B' }, { label: 'C' }] });
    const open = await agent.call('question.request', { sessionKey: own.key, mode: 'async', questions: [three] });
    await expect.poll(() => fake.received.length).toBe(3);
    await t.gw.push.idle();
    expect(fake.to('admin').map((r) => (r.payload as { id: string }).id)).toEqual([secret.id, open.id]);
    const guestGot = fake.to('guest');
    expect(guestGot.map((r) => (r.payload as { id: string }).id)).toEqual([open.id]);
    expect(JSON.stringify(guestGot)).not.toContain('Rotate the root key');
    expect(guestGot[0].urgency).toBe('normal');
    expect(guestGot[0].payload).not.toHaveProperty('actions');
    expect(fake.problems).toEqual([]);
  });

  it('[U17] the questions heard while the subscriptions are being read share that read; one made after a change reads them afresh', async () => {
    const { t, fake, admin, agent, sessionKey } = await setup();
    await admin.call('push.subscribe', { subscription: fake.subscriber('phone').toJSON() });
    const store = t.gw.store;
    const list = store.listPushSubscriptions.bind(store);
    let reads = 0;
    let open!: () => void;
    let gate = new Promise<void>((ok) => (open = ok));
    store.listPushSubscriptions = async (identity?: string) => {
      reads++;
      const rows = await list(identity);
      await gate;
      return rows;
    };
    for (const id of ['one', 'two', 'three']) await agent.call('question.request', { sessionKey, mode: 'async', questions: [item({ id })] });
    expect(reads).toBe(1);
    open();
    await expect.poll(() => fake.received.length).toBe(3);
    gate = Promise.resolve();
    await admin.call('push.subscribe', { subscription: fake.subscriber('laptop').toJSON() });
    await agent.call('question.request', { sessionKey, mode: 'async', questions: [item({ id: 'four' })] });
    await expect.poll(() => fake.received.length).toBe(5);
    await t.gw.push.idle();
    expect(reads).toBe(2);
    expect(fake.to('laptop').map((r) => r.payload)).toMatchObject([{ itemId: 'four' }]);
  });

  it('[U17] 404 and 410 drop the subscription: the next question is not sent to it', async () => {
    const { t, fake, admin, agent, sessionKey } = await setup();
    for (const name of ['gone', 'expired', 'fine']) await admin.call('push.subscribe', { subscription: fake.subscriber(name).toJSON() });
    fake.script('gone', { status: 404 });
    fake.script('expired', { status: 410 });
    await agent.call('question.request', { sessionKey, mode: 'async', questions: [item()] });
    await expect.poll(() => fake.requests.length).toBe(3);
    await t.gw.push.idle();
    expect((await t.gw.store.listPushSubscriptions('admin')).map((s) => s.endpoint)).toEqual([`${fake.origin}/push/fine`]);
    await agent.call('question.request', { sessionKey, mode: 'async', questions: [item({ id: 'again' })] });
    await expect.poll(() => fake.requests.length).toBe(4);
    await t.gw.push.idle();
    expect(fake.requests.map((r) => r.subscription).sort()).toEqual(['expired', 'fine', 'fine', 'gone']);
  });

  it('[U17] 429 waits the Retry-After it names, then delivers; 5xx retries are bounded', async () => {
    const { t, fake, admin, agent, sessionKey } = await setup({ attempts: 3 });
    await admin.call('push.subscribe', { subscription: fake.subscriber('busy').toJSON() });
    await admin.call('push.subscribe', { subscription: fake.subscriber('broken').toJSON() });
    fake.script('busy', { status: 429, retryAfter: '1' });
    fake.script('broken', { status: 500, retryAfter: '0' }, { status: 503, retryAfter: '0' }, { status: 500, retryAfter: '0' }, { status: 500 });
    await agent.call('question.request', { sessionKey, mode: 'async', questions: [item()] });
    await expect.poll(() => fake.to('busy').length, { timeout: 10_000 }).toBe(1);
    await t.gw.push.idle();
    const busy = fake.requests.filter((r) => r.subscription === 'busy');
    expect(busy).toHaveLength(2);
    expect(busy[1].atMs - busy[0].atMs).toBeGreaterThanOrEqual(1000);
    // Three tries and no more; the subscription stays (a server error says nothing about it).
    expect(fake.requests.filter((r) => r.subscription === 'broken')).toHaveLength(3);
    expect(fake.to('broken')).toEqual([]);
    expect(await t.gw.store.listPushSubscriptions('admin')).toHaveLength(2);
  });

  it('[U17] refuses an endpoint outside the push services and push.allowedEndpoints, bad keys and identities that see no questions', async () => {
    const { fake, admin } = await setup();
    const sub = fake.subscriber('x').toJSON();
    for (const endpoint of ['http://127.0.0.1:9/x', 'https://evil.example/push', 'http://fcm.googleapis.com/fcm/send/a', 'https://fcm.googleapis.com:8443/a', 'not a url']) {
      const err = await failure(admin.call('push.subscribe', { subscription: { ...sub, endpoint } }));
      expect(err.code).toBe('INVALID_REQUEST');
      expect(err.message).toContain('subscription.endpoint');
    }
    const badKey = await failure(admin.call('push.subscribe', { subscription: { ...sub, keys: { p256dh: 'short', auth: sub.keys.auth } } }));
    expect(badKey.code).toBe('INVALID_REQUEST');
    expect(badKey.message).toContain('subscription.keys.p256dh');
    const reader = await t!.connect('reader');
    expect((await failure(reader.call('push.subscribe', { subscription: sub }))).code).toBe('FORBIDDEN');
    expect((await failure(reader.call('push.config', {}))).code).toBe('FORBIDDEN');
    expect(await t!.gw.store.listPushSubscriptions()).toEqual([]);
  });

  it("[U17] an identity removes only its own subscriptions; the VAPID key pair is made once and kept with the gateway's data", async () => {
    const { fake, admin, guest } = await setup();
    const sub = fake.subscriber('mine').toJSON();
    await admin.call('push.subscribe', { subscription: sub });
    expect(await guest.call('push.unsubscribe', { endpoint: sub.endpoint })).toEqual({ unsubscribed: false });
    expect(await t!.gw.store.listPushSubscriptions('admin')).toHaveLength(1);
    expect(await admin.call('push.unsubscribe', { endpoint: sub.endpoint })).toEqual({ unsubscribed: true });
    expect(await t!.gw.store.listPushSubscriptions()).toEqual([]);

    const { publicKey } = await admin.call('push.config', {});
    expect(Buffer.from(publicKey, 'base64url')).toHaveLength(65);
    const dir = t!.dir;
    await t!.close({ keepDir: true });
    t = await startTestGateway({ dir });
    const again = await t.connect('admin');
    expect((await again.call('push.config', {})).publicKey).toBe(publicKey);
  });

  it('[U17] the known push services pass the endpoint check', () => {
    const none = new Set<string>();
    expect(endpointProblem('https://fcm.googleapis.com/fcm/send/abc', none)).toBeUndefined();
    expect(endpointProblem('https://updates.push.services.mozilla.com/wpush/v2/abc', none)).toBeUndefined();
    expect(endpointProblem('https://wns2-par02p.notify.windows.com/w/?token=abc', none)).toBeUndefined();
    expect(endpointProblem('https://web.push.apple.com/abc', none)).toBeUndefined();
    expect(endpointProblem('https://fcm.googleapis.com.evil.example/x', none)).toBeDefined();
    expect(endpointProblem('https://user:pw@fcm.googleapis.com/x', none)).toBeDefined();
  });
});

describe('U17 Web Push with several gateways (D2, D3)', () => {
  const clusters = clusterPerTest('push');

  it('[U17][D3] subscriptions and the VAPID key live in the shared store; each question is pushed once across gateways', { timeout: 120_000 }, async () => {
    const pushFake = (fake = await FakePushService.start());
    const cluster = await clusters.start(2, { config: { ...testConfig, push: { allowedEndpoints: [pushFake.origin] } } });
    const admin0 = await cluster.connect(0, 'admin');
    const admin1 = await cluster.connect(1, 'admin');
    const agent1 = await cluster.connect(1, 'agent');
    expect((await admin0.call('push.config', {})).publicKey).toBe((await admin1.call('push.config', {})).publicKey);
    await admin0.call('push.subscribe', { subscription: pushFake.subscriber('phone').toJSON() });
    const { session } = await admin1.call('sessions.create', { title: 'Shared' });
    const { id } = await agent1.call('question.request', { sessionKey: session.key, questions: [item()] });
    await expect.poll(() => pushFake.received.length, { timeout: 20_000 }).toBe(1);
    await admin0.call('question.resolve', { id, answers: { env: ['Staging'] } });
    await expect.poll(() => pushFake.received.some((r) => (r.payload as { type: string }).type === 'close'), { timeout: 20_000 }).toBe(true);
    expect(pushFake.received.map((r) => (r.payload as { type: string }).type)).toEqual(['question', 'close']);
    expect(pushFake.problems).toEqual([]);
  });
});

describe('Web Push follows the escalation (E2)', () => {
  it('[E2][U17] a routed question is pushed to its first step\'s people only, and to the next step\'s when it runs', async () => {
    const clock = new FakeClock();
    fake = await FakePushService.start();
    t = await startTestGateway({ config: routingConfig, clock, pushAllowedEndpoints: [fake.origin] });
    const admin = await t.connect('admin');
    const agent = await t.connect('agent');
    const people = { ana: await connectPerson(t, 'ana'), bo: await connectPerson(t, 'bo'), cy: await connectPerson(t, 'cy') };
    for (const [name, c] of Object.entries(people)) await c.call('push.subscribe', { subscription: fake.subscriber(`${name}-phone`).toJSON() });
    await admin.call('push.subscribe', { subscription: fake.subscriber('admin-phone').toJSON() });
    const { session } = await admin.call('sessions.create', { title: 'Work' });
    const { id } = await agent.call('question.request', { sessionKey: session.key, questions: [item()], timeoutMs: 3_600_000 });
    await expect.poll(() => fake?.received.length).toBe(1);
    await t.gw.push.idle();
    expect(fake.received.map((r) => r.subscription)).toEqual(['ana-phone']);
    // E4: the step's people may take it from the notification.
    expect(fake.received[0].payload).toMatchObject({ type: 'question', id, ack: true });
    clock.advance(5 * 60_000);
    await expect.poll(() => fake?.received.length, { timeout: 10_000 }).toBe(3);
    await t.gw.push.idle();
    expect(fake.received.map((r) => r.subscription).sort()).toEqual(['ana-phone', 'bo-phone', 'cy-phone']);
    expect(fake.received.every((r) => (r.payload as { id?: string }).id === id)).toBe(true);
    // E4: Cy takes it: the phones of everyone notified say so, once, though the route changes again (a hand-off).
    await people.cy.call('question.ack', { id });
    await expect.poll(() => fake?.received.filter((r) => (r.payload as { type: string }).type === 'taken').length, { timeout: 10_000 }).toBe(3);
    await people.cy.call('question.handoff', { id, to: 'identity:ana' });
    await t.gw.push.idle();
    const taken = fake.received.filter((r) => (r.payload as { type: string }).type === 'taken');
    expect(taken.map((r) => [(r.payload as { text?: string }).text, 'ack' in (r.payload as object)])).toEqual(Array(3).fill(['Cy is on it', false]));
    // A worker older than "taken" shows any push but a close as a question's notification: it shows this question's, saying who took it.
    const oldWorkerShows = (p: unknown) => ({ ...(p as Record<string, unknown>), type: undefined, text: undefined, ack: undefined });
    const asked = fake.received.find((r) => r.subscription === 'cy-phone')!.payload as { body: string };
    expect(taken.map((r) => oldWorkerShows(r.payload))).toEqual(Array(3).fill(oldWorkerShows({ ...asked, body: `Cy is on it\n${asked.body}` })));
    // E7: once Bo answers, each phone's notification turns into who answered it, and where.
    await people.bo.call('question.resolve', { id, answers: { env: ['Staging'] }, surface: 'tui' });
    await expect.poll(() => fake?.received.filter((r) => (r.payload as { type: string }).type === 'close').length, { timeout: 10_000 }).toBe(4);
    await t.gw.push.idle();
    const closes = fake.received.filter((r) => (r.payload as { type: string }).type === 'close');
    expect(closes.map((r) => r.payload)).toEqual(Array(4).fill({ type: 'close', id, text: 'Answered by Bo · TUI' }));
  });
});

describe('a routed approval\'s notification once answered (E7, E5)', () => {
  it('[E7][E5] Ana\'s phone hears "Answered by <name> · <surface>" with the Allow or Deny apart, for a Deny and for a completed quorum', async () => {
    fake = await FakePushService.start();
    t = await startTestGateway({ config: routingConfig, clock: new FakeClock(), pushAllowedEndpoints: [fake.origin] });
    const [admin, agent, ana] = [await t.connect('admin'), await t.connect('agent'), await connectPerson(t, 'ana')];
    await ana.call('push.subscribe', { subscription: fake.subscriber('ana-phone').toJSON() });
    const { session } = await admin.call('sessions.create', { title: 'Deploys' });
    const closesOf = (id: string) => (fake?.received ?? []).map((r) => r.payload as { type: string; id?: string }).filter((p) => p.type === 'close' && p.id === id);
    const closeOf = async (id: string) => {
      await expect.poll(() => closesOf(id).length, { timeout: 10_000 }).toBeGreaterThan(0);
      await t?.gw.push.idle();
      return closesOf(id);
    };

    const denied = await agent.call('question.request', { sessionKey: session.key, approval: { tool: 'Bash', input: { command: 'rm -r build' } }, timeoutMs: 3_600_000 });
    await ana.call('question.resolve', { id: denied.id, answers: { approval: ['Deny'] }, surface: 'tui' });
    expect(await closeOf(denied.id)).toEqual([{ type: 'close', id: denied.id, text: 'Answered by Ana · TUI', decision: 'Deny' }]);

    // E5: Ana's Allow holds; the admin's completes the quorum, and is the one named.
    const allowed = await agent.call('question.request', { sessionKey: session.key, approval: { tool: 'Bash', input: { command: 'git push origin main' } }, timeoutMs: 3_600_000 });
    expect(await ana.call('question.resolve', { id: allowed.id, answers: { approval: ['Allow'] }, surface: 'tui' })).toMatchObject({ status: 'pending' });
    expect(await admin.call('question.resolve', { id: allowed.id, answers: { approval: ['Allow'] }, surface: 'control-ui' })).toMatchObject({ status: 'answered' });
    expect(await closeOf(allowed.id)).toEqual([{ type: 'close', id: allowed.id, text: 'Answered by admin · Control UI', decision: 'Allow' }]);
  });
});
