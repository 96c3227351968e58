import { afterEach, describe, expect, it, vi } from 'vitest';
import { CloseCode } from '../../protocol/index.ts';
import { FakeClock } from '../../testing/fake-clock.ts';
import { gatewayPerTest, item, tokenOf } from '../../testing/gateway-harness.ts';
import { laterCommit, roundTrips } from '../../testing/barrier.ts';

// P2, P3, P6, errors: frames on a connected socket (bad frames, sizes, request ids, cancel), ticks and rate limits.
const gateways = gatewayPerTest();
afterEach(() => {
  vi.useRealTimers();
});

/** The rate limiter's buckets fill on real time (performance.now): held still here, and moved only by `vi.advanceTimersByTime`. */
const holdRealTime = () => vi.useFakeTimers({ toFake: ['performance'] });

describe('transport and handshake', () => {
  it('[P3] answers INVALID_REQUEST with id null to a frame that is not JSON, and keeps the socket open', async () => {
    const t = await gateways.start();
    const c = await t.connect('admin');
    c.sendRaw('{not json');
    await c.until(() => c.responses.find((r) => r.id === null));
    const res = c.responses.find((r) => r.id === null)!;
    expect(res.ok).toBe(false);
    expect(res.error?.code).toBe('INVALID_REQUEST');
    expect((await c.call('sessions.list', {})).sessions).toEqual([]);
  });

  it('[P3] answers INVALID_REQUEST with the readable id to a frame of the wrong shape', async () => {
    const t = await gateways.start();
    const c = await t.connect('admin');
    c.sendRaw(JSON.stringify({ type: 'req', id: 'shape-1', params: {} }));
    c.sendRaw(JSON.stringify({ type: 'bogus', id: 'shape-2' }));
    c.sendRaw(JSON.stringify([1, 2, 3]));
    const [a, b] = await Promise.all([
      c.until(() => c.responses.find((r) => r.id === 'shape-1')),
      c.until(() => c.responses.find((r) => r.id === 'shape-2')),
    ]);
    expect(a.error?.code).toBe('INVALID_REQUEST');
    expect(a.error?.details).toEqual([expect.objectContaining({ path: 'method' })]);
    expect(b.error?.code).toBe('INVALID_REQUEST');
    await c.until(() => c.responses.filter((r) => r.id === null).length === 1 || undefined);
    expect(c.ws.readyState).toBe(c.ws.OPEN);
  });

  it('[P3] answers INVALID_REQUEST to a binary frame, with id null', async () => {
    const t = await gateways.start();
    const c = await t.connect('admin');
    c.sendRaw(Buffer.from(JSON.stringify({ type: 'req', id: 'b', method: 'sessions.list' })), true);
    const res = await c.until(() => c.responses.find((r) => r.id === null));
    expect(res.error?.code).toBe('INVALID_REQUEST');
  });

  it('[P3] answers METHOD_NOT_FOUND and keeps the socket open', async () => {
    const t = await gateways.start();
    const c = await t.connect('admin');
    const res = await c.request('sessions.explode', {});
    expect(res.ok).toBe(false);
    expect(res.error?.code).toBe('METHOD_NOT_FOUND');
    expect(res.error?.message).toContain('sessions.explode');
    expect((await c.call('sessions.list', {})).sessions).toEqual([]);
  });

  it('[P3] a frame over maxPayload closes the socket with 1009', async () => {
    const t = await gateways.start({ maxPayload: 2048 });
    const c = await t.connect('admin');
    c.sendRaw(JSON.stringify({ type: 'req', id: 'big', method: 'sessions.create', params: { title: 'x'.repeat(4096) } }));
    expect((await c.waitClose()).code).toBe(CloseCode.tooLarge);
  });

  it('[P3] policy.maxPayload from the config applies when no option is given', async () => {
    const { testConfig } = await import('../../testing/gateway-harness.ts');
    const t = await gateways.start({ config: { ...testConfig, policy: { maxPayload: 1500 } } });
    const c = await t.connect('admin');
    expect(c.hello!.policy.maxPayload).toBe(1500);
    c.sendRaw('x'.repeat(2000));
    expect((await c.waitClose()).code).toBe(1009);
  });

  it('[P2] a second connect on an open socket answers INVALID_REQUEST', async () => {
    const t = await gateways.start();
    const c = await t.connect('admin');
    const res = await c.connect(tokenOf('admin'));
    expect(res.error?.code).toBe('INVALID_REQUEST');
    expect(res.error?.details).toEqual([{ path: 'method', problem: 'connect is sent once per socket, and this one is connected already' }]);
    expect(c.ws.readyState).toBe(c.ws.OPEN);
  });

  it('[P6] sends tick {ts} every tickIntervalMs, without seq', async () => {
    const clock = new FakeClock();
    const t = await gateways.start({ clock, tickIntervalMs: 1000 });
    const c = await t.connect('admin');
    clock.advance(1000);
    clock.advance(1000);
    await c.until(() => (c.eventsNamed('tick').length >= 2 ? true : undefined));
    const ticks = c.events.filter((e) => e.event === 'tick');
    expect(ticks[0].seq).toBeUndefined();
    expect((ticks[1].payload as { ts: number }).ts).toBe(clock.now());
  });

  it('[P6] the tick interval defaults to 15 s', async () => {
    const clock = new FakeClock();
    const t = await gateways.start({ clock, tickIntervalMs: undefined });
    const c = await t.connect('admin');
    expect(c.hello!.policy.tickIntervalMs).toBe(15_000);
    clock.advance(14_999);
    // A tick goes out as its timer fires: one fired by now is on the socket ahead of this answer.
    await roundTrips([c]);
    expect(c.eventsNamed('tick')).toHaveLength(0);
    clock.advance(1);
    await c.waitEvent('tick');
  });

  it('[P2] a cancel frame stops a waitAnswer and nothing is answered for its id', async () => {
    const t = await gateways.start();
    const agent = await t.connect('agent');
    const { id } = await agent.call('question.request', { questions: [item()] });
    const waiting = agent.request('question.waitAnswer', { id }, 'wait-1');
    // A connection's frames are taken up in order: each round trip shows the gateway had the frame sent before it.
    await roundTrips([agent]);
    agent.cancel('wait-1');
    await roundTrips([agent]);
    const admin = await t.connect('admin');
    await admin.call('question.resolve', { id, answers: { env: ['Staging'] } });
    // A wait still running would be woken by the commit of the resolve; a later commit has gone out after it.
    await laterCommit(admin, [agent]);
    expect(agent.responses.find((r) => r.id === 'wait-1')).toBeUndefined();
    // The id is free again once its handler stopped.
    const again = await agent.request('question.waitAnswer', { id }, 'wait-1');
    expect(again.payload).toEqual({ status: 'answered', answers: { env: ['Staging'] } });
    await roundTrips([agent]);
    expect(agent.responses.filter((r) => r.id === 'wait-1')).toHaveLength(1);
    void waiting;
  });

  it('[P2] request ids are unique per connection while in flight', async () => {
    const t = await gateways.start();
    const agent = await t.connect('agent');
    const { id } = await agent.call('question.request', { questions: [item()] });
    void agent.request('question.waitAnswer', { id }, 'dup');
    const second = await agent.request('question.waitAnswer', { id }, 'dup');
    expect(second.error?.code).toBe('INVALID_REQUEST');
    expect(second.error?.message).toContain('in flight');
    // Named as any bad field is: the field, and the rule it broke.
    expect(second.error?.details).toEqual([{ path: 'id', problem: '"dup" is already in flight: request ids are unique per connection' }]);
  });

  it('[errors] rate limiting answers RATE_LIMITED with retryAfterMs, then lets requests through again', async () => {
    // Time held still: five requests sent together find three tokens, however slow the machine.
    holdRealTime();
    const t = await gateways.start({ rateLimit: { burst: 3, perSecond: 1 } });
    const c = await t.connect('admin');
    const results = await Promise.all([1, 2, 3, 4, 5].map(() => c.request('sessions.list', {})));
    const limited = results.filter((r) => r.error?.code === 'RATE_LIMITED');
    expect(results.filter((r) => r.ok)).toHaveLength(3);
    expect(limited).toHaveLength(2);
    expect(limited[0].error?.retryAfterMs).toBeGreaterThan(0);
    expect(limited[0].error?.retryAfterMs).toBeLessThanOrEqual(1000);
    // Not a moment before the time the gateway said, and then again.
    vi.advanceTimersByTime(limited[1].error!.retryAfterMs! - 1);
    expect((await c.request('sessions.list', {})).error?.code).toBe('RATE_LIMITED');
    vi.advanceTimersByTime(1);
    expect((await c.request('sessions.list', {})).ok).toBe(true);
  });

  it('[errors] policy.rateLimit from the config applies', async () => {
    const { testConfig } = await import('../../testing/gateway-harness.ts');
    holdRealTime();
    const t = await gateways.start({ config: { ...testConfig, policy: { rateLimit: { burst: 1, perSecond: 1 } } } });
    const c = await t.connect('admin');
    const [a, b] = await Promise.all([c.request('sessions.list', {}), c.request('sessions.list', {})]);
    expect(a.ok).toBe(true);
    expect(b.error?.code).toBe('RATE_LIMITED');
  });
});
