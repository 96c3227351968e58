/**
 * X1: every way `askdock hook` ends without a decision prints nothing and exits 0 (the agent asks in its own terminal;
 * nothing is ever allowed by default): a cancel from elsewhere, Skip, expiry, its own deadline, an event it refuses.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fastClock, nextEvent, startTestGateway, type TestGateway } from '../testing/agent-harness.ts';
import { hookAsks, hookFixture, startHook, type Hook } from '../testing/hook-process.ts';
import { createNodeClient } from '../client/node.ts';
import type { Clock } from '../gateway/infra/clock.ts';
import { startGateway } from '../gateway/gateway.ts';
import { silentLogger } from '../gateway/infra/logger.ts';
import { testConfig, tokenOf } from '../testing/gateway-harness.ts';
import type { GatewayClient } from '../client/client.ts';
import { HOOK_EVENT_MAX_BYTES, HOOK_INPUT_MAX_DEPTH } from './hook-input.ts';

/** What a hook that decided nothing shows: exit 0, an empty stdout, and `why` on stderr. */
async function decidedNothing(hook: Hook, why: string) {
  const out = await hook.done;
  expect(out).toMatchObject({ code: 0, stdout: '' });
  expect(out.stderr).toContain(why);
}

const deep = (levels: number) => '{"a":'.repeat(levels) + '1' + '}'.repeat(levels);

describe('askdock hook ends without a decision', { timeout: 180_000 }, () => {
  let t: TestGateway;
  /** Another connection of the same agent: it may cancel what the hook asked (PROTOCOL Q5). */
  let sameAgent: GatewayClient;
  beforeAll(async () => {
    t = await startTestGateway();
    sameAgent = createNodeClient({ url: t.url, token: t.agentToken, client: { name: 'other-agent-connection', mode: 'cli' } });
    await sameAgent.start();
  }, 60_000);
  afterAll(async () => {
    sameAgent?.close();
    await t?.close();
  });

  /** Starts the hook on a fixture and waits until it asks. */
  async function asking(name: string) {
    const requested = nextEvent(t.operator, 'question.requested');
    const hook = startHook(t, hookFixture(name));
    return { hook, question: await hookAsks(t.operator, hook, requested) };
  }

  it('[X1][X6] an approval cancelled by another connection while the hook waits: nothing printed, exit 0', async () => {
    const { hook, question } = await asking('claude-bash');
    await sameAgent.request('question.resolve', { id: question.id, cancel: true, reason: 'withdrawn elsewhere' });
    await decidedNothing(hook, 'no answer (cancelled)');
  });

  it('[X1] Skip on a Claude Code Elicitation event: nothing printed, exit 0', async () => {
    const { hook, question } = await asking('claude-elicitation-form');
    await t.operator.request('question.resolve', { id: question.id, skip: true });
    await decidedNothing(hook, 'no answer (skipped)');
  });

  it('[X1] an Elicitation event cancelled while the hook waits (form and url): nothing printed, exit 0', async () => {
    for (const name of ['claude-elicitation-form', 'claude-elicitation-url']) {
      const { hook, question } = await asking(name);
      await sameAgent.request('question.resolve', { id: question.id, cancel: true, reason: 'withdrawn elsewhere' });
      await decidedNothing(hook, 'no answer (cancelled)');
    }
  });

  it('[X1] an event over 1 MiB is refused without reading the rest: stderr says so, nothing printed, exit 0', { timeout: 90_000 }, async () => {
    // Twice the bound, and stdin left open: a hook that reads to the end never gets there.
    const hook = startHook(t, Buffer.alloc(2 * HOOK_EVENT_MAX_BYTES, 'x'), [], { keepOpen: true });
    try {
      await decidedNothing(hook, 'the event on stdin is larger than 1 MiB');
    } finally {
      hook.child.stdin!.destroy();
    }
    expect((await t.operator.request('question.list', { status: 'pending' })).questions).toEqual([]);
  });

  it('[X1] a refused token names the setting to fix (--token), not the protocol field: nothing printed, exit 0', async () => {
    const out = await startHook({ ...t, agentToken: 'adk_not-a-token-of-this-gateway-000' }, hookFixture('claude-bash')).done;
    expect(out).toMatchObject({ code: 0, stdout: '' });
    expect(out.stderr).toContain(`the gateway at ${t.url} refused the token given with --token`);
    expect(out.stderr).not.toContain('auth.token');
  });

  it(`[X1] a tool_input or requested_schema nested past ${HOOK_INPUT_MAX_DEPTH} levels says why: nothing printed, exit 0`, async () => {
    const base = '"session_id":"s-deep","cwd":"/home/dev/shop"';
    const tool = `{"hook_event_name":"PermissionRequest",${base},"tool_name":"mcp__db__query","tool_input":{"filter":${deep(100_000)}}}`;
    await decidedNothing(startHook(t, tool), `tool_input is nested deeper than ${HOOK_INPUT_MAX_DEPTH} levels`);
    const schema = `{"hook_event_name":"Elicitation",${base},"mcp_server_name":"db","requested_schema":{"type":"object","properties":{"f":${deep(HOOK_INPUT_MAX_DEPTH)}}}}`;
    await decidedNothing(startHook(t, schema), `requested_schema is nested deeper than ${HOOK_INPUT_MAX_DEPTH} levels`);
    expect((await t.operator.request('question.list', { status: 'pending' })).questions).toEqual([]);
  });
});

describe('askdock hook when time runs out', { timeout: 180_000 }, () => {
  /** Runs `test` against a gateway of its own whose clock is `clock`. */
  async function onGateway(clock: Clock, test: (t: TestGateway) => Promise<void>) {
    const t = await startTestGateway({ clock });
    try {
      await test(t);
    } finally {
      await t.close();
    }
  }

  it('[X1] an approval or an Elicitation event nobody answers in time: nothing printed, exit 0', async () => {
    // The gateway's clock runs 100 times fast: the 30 s question expires in a blink.
    await onGateway(fastClock(100), async (t) => {
      const requested = nextEvent(t.operator, 'question.requested');
      const approval = startHook(t, hookFixture('claude-bash'), ['--timeout', '30']);
      const question = await hookAsks(t.operator, approval, requested);
      expect(question.expiresAtMs! - question.createdAtMs).toBe(30_000);
      await decidedNothing(approval, 'no answer (expired)');
      await decidedNothing(startHook(t, hookFixture('claude-elicitation-form'), ['--timeout', '30']), 'no answer (expired)');
    });
  });

  it('[X1] the hook\'s own deadline (--timeout 30) withdraws its question though the gateway would wait on: nothing printed, exit 0', async () => {
    // The gateway's clock runs 100 times slow: its 30 s expiry is far off, so only the hook's own deadline ends the wait.
    await onGateway(fastClock(0.01), async (t) => {
      const requested = nextEvent(t.operator, 'question.requested');
      const hook = startHook(t, hookFixture('claude-bash'), ['--timeout', '30']);
      const question = await hookAsks(t.operator, hook, requested);
      const resolved = nextEvent(t.operator, 'question.resolved', (p) => p.id === question.id, 150_000);
      expect(await resolved).toMatchObject({ status: 'cancelled' });
      await decidedNothing(hook, 'no answer within 30 s');
    });
  });
});

describe('askdock hook when the gateway cancels', { timeout: 180_000 }, () => {
  it('[X1][Q7] the gateway cancelling the question while the hook waits (requester-inactive): nothing printed, exit 0', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'askdock-hook-gw-'));
    const start = (port: number, requesterGraceMs?: number) =>
      startGateway({ host: '127.0.0.1', port, dbPath: join(dir, 'askdock.db'), config: testConfig, log: silentLogger(), ...(requesterGraceMs !== undefined ? { requesterGraceMs } : {}) });
    let gw = await start(0);
    const port = gw.port;
    const hook = startHook({ url: gw.wsUrl, agentToken: tokenOf('agent'), dir }, hookFixture('claude-bash'));
    try {
      const pending = async (url: string) => {
        const admin = createNodeClient({ url, token: tokenOf('admin'), client: { name: 'hook-gw-admin', mode: 'cli' } });
        await admin.start();
        try {
          return (await admin.request('question.list', {})).questions;
        } finally {
          admin.close();
        }
      };
      await expect.poll(async () => (await pending(gw.wsUrl)).filter((q) => q.status === 'pending').length, { timeout: 60_000, interval: 200 }).toBe(1);
      await gw.close();
      // On another port the hook cannot come back, so the grace period ends and the gateway cancels its question.
      gw = await start(0, 200);
      await expect.poll(async () => (await pending(gw.wsUrl))[0]?.reason, { timeout: 60_000, interval: 200 }).toBe('requester-inactive');
      await gw.close();
      // Back where the hook looks for it: the hook finds its question cancelled.
      gw = await start(port);
      await decidedNothing(hook, 'no answer (cancelled)');
    } finally {
      hook.child.kill('SIGKILL');
      await gw.close().catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
