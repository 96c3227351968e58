/**
 * X1: `askdock hook` starts on every tool call and reads five frames, so the protocol's method and event tables build
 * an entry's schemas when it is first read, not when the protocol loads. Counted, not timed: zod's object schemas are
 * counted as they are made (the protocol's modules import zod as a namespace, so the mock sees every call).
 */
import { describe, expect, it, vi } from 'vitest';

const made = vi.hoisted(() => ({ objects: 0 }));
vi.mock('zod', async (importOriginal) => {
  const z = await importOriginal<typeof import('zod')>();
  return { ...z, object: (...args: Parameters<typeof z.object>) => (made.objects++, z.object(...args)) };
});

const { methods, METHOD_NAMES } = await import('./methods.ts');
const { events, EVENT_NAMES } = await import('./events.ts');
const { protocolChecks } = await import('../client/protocol-checks.ts');
const atLoad = made.objects;

describe('the method and event tables, built on first use', () => {
  it("[X1] the hook's reads build their own entries' schemas, a small part of what every method and event would", () => {
    // What the hook reads: sessions.create's and question.request's results, and the events an agent is sent.
    const before = made.objects;
    protocolChecks.result('sessions.create', { session: { key: 's1', title: 't', createdBy: 'a', agentId: 'a', createdAtMs: 1, lastMessageAtMs: null, pendingQuestions: 0 } });
    protocolChecks.result('question.request', { id: 'q1', expiresAtMs: null });
    for (const event of ['tick', 'question.resolved', 'question.retired'] as const) protocolChecks.event({ type: 'event', event, payload: {} });
    const hookBuilt = made.objects - before;
    expect(hookBuilt).toBeGreaterThan(0);
    // Every entry read once: what a gateway reads over its life, and what loading the tables built before.
    for (const m of [...METHOD_NAMES, 'connect' as const]) void [methods[m].params, methods[m].result, methods[m].scopes];
    for (const e of EVENT_NAMES) void events[e];
    const allBuilt = made.objects - before;
    expect(allBuilt).toBeGreaterThan(5 * hookBuilt);
    // Loading still makes the schemas the entries share (a session, a question record), once.
    expect(atLoad).toBeGreaterThan(0);
  });

  it('[X1] an entry is built once and read as the same schema after; the tables list every name without building it', () => {
    const first = methods['chat.send'];
    expect(methods['chat.send']).toBe(first);
    expect(methods['chat.send'].params).toBe(first.params);
    expect(Object.keys(methods)).toEqual(['connect', ...METHOD_NAMES]);
    expect(Object.hasOwn(events, 'question.routed')).toBe(true);
    expect(events['question.routed'].safeParse({ id: 'q1', route: 'nope' }).success).toBe(false);
  });
});
