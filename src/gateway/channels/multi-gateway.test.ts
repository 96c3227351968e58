import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clusterPerTest, type StartedCluster } from '../../testing/gateway-cluster.ts';
import { testConfig } from '../../testing/gateway-harness.ts';
import type { TestClient } from '../../testing/ws-client.ts';
import { until } from '../../testing/channels/fake-http.ts';
import { TelegramDriver } from '../../testing/channels/fake-telegram.ts';
import { deploy } from '../../testing/channels/scenario-items.ts';

// Two gateway processes on one database, both configured with the same Telegram bot (a fake Bot API on loopback).
let driver: TelegramDriver;
// Registered before the clusters' hooks, so the fake Bot API closes only after the gateways that poll it.
beforeEach(async () => {
  driver = new TelegramDriver();
  await driver.start();
});
afterEach(async () => {
  await driver.close();
});
const clusters = clusterPerTest('channels');

const READY = 'askdock channel telegram ready';
const LONG = { timeout: 180_000 };
const readyOn = (c: StartedCluster, i: number) => c.gateways[i].stdout.includes(READY);

/**
 * Whether the gateway that posted question `id` has recorded where (in the database). A gateway killed between the
 * platform's answer and that commit leaves the next one to post it again: at least once, as with one gateway.
 */
async function postRecorded(id: string): Promise<boolean> {
  const db = new pg.Client({ connectionString: clusters.schema.url });
  await db.connect();
  try {
    const row = (await db.query(`SELECT value FROM meta WHERE key = $1`, [`channel.telegram.post.${id}`])).rows[0] as { value: string } | undefined;
    return !!row && !!(JSON.parse(row.value) as { ref?: string }).ref;
  } finally {
    await db.end();
  }
}

async function askIn(agent: TestClient, sessionKey: string): Promise<{ id: string; runId: string }> {
  const { runId } = await agent.call('run.start', { sessionKey });
  return { id: (await agent.call('question.request', { sessionKey, runId, questions: [deploy] })).id, runId };
}

describe('a channel on several gateways of one PostgreSQL database (D3)', () => {
  it('[H1][D3] one gateway at a time polls and posts; when it dies another takes the channel over and nothing is posted twice', LONG, async () => {
    const users = { [driver.ids.alice]: 'guest' };
    const c = await clusters.start(2, { config: { ...testConfig, channels: { telegram: driver.config(users) } } });
    await until(() => readyOn(c, 0), 'gateway 1 runs the channel', 60_000);
    const admin = await c.connect(1, 'admin');
    const agent = await c.connect(1, 'agent');

    // Alice's first message makes her session (read by the polling gateway); a question asked through the OTHER
    // gateway is posted once, by the gateway that runs the channel.
    await driver.userSays(driver.ids.alice, 'deploy please');
    const session = await until(async () => (await admin.call('sessions.list', {})).sessions.find((s) => s.createdBy === 'guest'), 'her session', 30_000);
    const { id: first } = await askIn(agent, session.key);
    const prompt = await until(() => driver.messages().find((m) => m.buttons.includes('Staging')), 'the question posted', 30_000);
    expect(readyOn(c, 1)).toBe(false);
    expect(driver.fake.overlappingPolls).toBe(0);
    await until(() => postRecorded(first), 'the post recorded', 30_000);

    await c.kill(0);
    await until(() => readyOn(c, 1), 'gateway 2 takes the channel over', 60_000);
    // The press reaches the gateway that polls now; the question is answered once and its message shows the outcome.
    await driver.press(driver.ids.alice, prompt, 'Staging');
    await until(async () => (await admin.call('question.get', { id: first })).question.status === 'answered', 'the answer', 30_000);
    await until(() => driver.messages().find((m) => m.ref === prompt.ref && m.text.includes('Answered: Staging')), 'the outcome shown', 30_000);
    const { id: second, runId } = await askIn(agent, session.key);
    const questionPosts = () => driver.fake.http.callsOf('sendMessage').filter((call) => String(call.body.text).includes('Where should it deploy?'));
    await until(() => questionPosts().length >= 2, 'the second question posted', 30_000);
    // The channel sends one job at a time, in order: once a later message of the agent is out, no other post of the
    // question is waiting behind it.
    await agent.call('chat.inject', { runId, text: 'Checking the pipeline first', state: 'final' });
    await until(() => driver.messages().find((m) => m.text.includes('Checking the pipeline first')), 'a later message posted', 30_000);
    // Each question once: the first by the gateway that died, the second by the one that took over.
    expect(questionPosts()).toHaveLength(2);
    expect((await admin.call('question.get', { id: second })).question.status).toBe('pending');
    expect(driver.fake.overlappingPolls).toBe(0);
  });
});
