// @vitest-environment jsdom
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { connect } from '../../../../agent/sdk.ts';
import { createNodeClient } from '../../../../client/node.ts';
import { startGateway, type RunningGateway } from '../../../../gateway/gateway.ts';
import { silentLogger } from '../../../../gateway/infra/logger.ts';
import { item, testConfig, tokenOf } from '../../../../testing/gateway-harness.ts';
import { freePort } from '../../../../testing/restartable-gateway.ts';
import { useDraftsStore } from '../stores/drafts.ts';
import { resolveWithDraft } from './submit-answer.ts';

const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});
beforeEach(() => {
  localStorage.clear();
  useDraftsStore.setState({ drafts: {}, sent: {} });
});

/** The request timeout of the page's client, short so the outage below outlasts it many times over. */
const REQUEST_TIMEOUT_MS = 200;

describe('a submit while the gateway is down', () => {
  it('[U11][P7][Q5] outlasting the request timeout, it goes again by itself once the gateway is back: one answer, the same resolution id', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'askdock-submit-outage-'));
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    const port = await freePort();
    const gatewayOn = () => startGateway({ host: '127.0.0.1', port, dbPath: join(dir, 'askdock.db'), config: testConfig, log: silentLogger() });
    let gateway: RunningGateway = await gatewayOn();
    cleanup.push(() => gateway.close());
    const url = `ws://127.0.0.1:${port}/ws`;
    const backoff = { initialMs: 50, maxMs: 200 };

    const agent = await connect({ url, token: tokenOf('agent'), backoff });
    cleanup.push(() => agent.close());
    const { session } = await agent.client.request('sessions.create', { title: 'outage' });
    const results: unknown[] = [];
    const asked = agent.askUser({ questions: [item()] }, { sessionKey: session.key, id: 'q-outage' }).then((r) => results.push(r));
    asked.catch(() => undefined);
    const page = createNodeClient({ url, token: tokenOf('admin'), client: { name: 'control-ui', mode: 'ui' }, requestTimeoutMs: REQUEST_TIMEOUT_MS, backoff });
    cleanup.push(() => page.close());
    await page.start();
    await expect.poll(async () => (await page.request('question.list', { status: 'pending' })).questions.length).toBe(1);

    await gateway.close();
    let settled: string | null = null;
    const submit = resolveWithDraft(page, 'q-outage', { kind: 'answer', answers: { env: ['Production'] } }, 'control-ui');
    submit.then(
      () => (settled = 'answered'),
      (err) => (settled = `failed: ${String(err)}`),
    );
    // Many request timeouts later, nothing is settled. The barrier: requests sent one after another on the same client,
    // each given up on its own request timeout (timers fire in order, so the submit's attempts gave up before them).
    for (let i = 0; i < 8; i++) await expect(page.request('sessions.list', {})).rejects.toThrow(/timed out/);
    expect(settled).toBeNull();

    gateway = await gatewayOn();
    expect(await submit).toMatchObject({ status: 'answered', answers: { env: ['Production'] } });
    await asked;
    expect(results).toEqual([{ status: 'answered', answers: { answers: { env: ['Production'] } }, receipt: expect.any(String) }]);

    const { question } = await page.request('question.get', { id: 'q-outage' });
    expect(question).toMatchObject({ status: 'answered', answers: { env: ['Production'] }, resolvedBy: { identity: 'admin', surface: 'control-ui' } });
    // The one resolution id of the draft: the gateway holds that resolve, so a repeat of it is the first result, not a refusal.
    const resolutionId = useDraftsStore.getState().drafts['q-outage']?.resolutionId;
    expect(resolutionId).toEqual(expect.any(String));
    const again = await page.request('question.resolve', { id: 'q-outage', answers: { env: ['Production'] }, resolutionId: resolutionId!, surface: 'control-ui' });
    expect(again).toMatchObject({ status: 'answered', answers: { env: ['Production'] } });
  });
});
