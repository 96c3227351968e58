import { afterEach, describe, expect, it } from 'vitest';
import type { GatewayConfig } from '../config.ts';
import { failure, startTestGateway, testConfig, type TestGateway } from '../../testing/gateway-harness.ts';

let t: TestGateway | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

// Both agents may read secrets (agent.secrets): each only its own.
const config: GatewayConfig = {
  identities: testConfig.identities.map((i) => (i.id === 'agent' || i.id === 'agent2' ? { ...i, scopes: ['agent.run', 'agent.secrets'] } : i)),
};

/** `who` asks for `name`, the admin gives `value`; the request's id. */
async function stored(tg: TestGateway, who: 'agent' | 'agent2', name: string, value: string): Promise<string> {
  const admin = await tg.connect('admin');
  const asker = await tg.connect(who);
  const { id } = await asker.call('secret.request', { name, description: `for ${who}` });
  expect(await admin.call('secret.provide', { id, value })).toEqual({ status: 'stored', name });
  return id;
}

describe('K1 a secret belongs to the agent that asked for it', () => {
  it("[K1][A4] agent B cannot read agent A's secret by name through any secret method; A still can, after a restart too", async () => {
    t = await startTestGateway({ config });
    const id = await stored(t, 'agent', 'DEPLOY_TOKEN', 'value-of-agent-a');
    const b = await t.connect('agent2');
    // The value: not found, as if none were stored.
    const got = await failure(b.call('secret.get', { name: 'DEPLOY_TOKEN' }));
    expect(got.code).toBe('SECRET_NOT_FOUND');
    expect(JSON.stringify(got)).not.toContain('value-of-agent-a');
    // Its request: not found either, and not listed.
    expect((await failure(b.call('secret.waitResult', { id }))).code).toBe('SECRET_NOT_FOUND');
    expect((await failure(b.call('secret.cancel', { id }))).code).toBe('SECRET_NOT_FOUND');
    expect((await b.call('secret.list', {})).requests).toEqual([]);
    const a = await t.connect('agent');
    expect(await a.call('secret.get', { name: 'DEPLOY_TOKEN' })).toEqual({ value: 'value-of-agent-a' });

    const dir = t.dir;
    await t.close({ keepDir: true });
    t = await startTestGateway({ config, dir });
    const b2 = await t.connect('agent2');
    expect((await failure(b2.call('secret.get', { name: 'DEPLOY_TOKEN' }))).code).toBe('SECRET_NOT_FOUND');
    const a2 = await t.connect('agent');
    expect(await a2.call('secret.get', { name: 'DEPLOY_TOKEN' })).toEqual({ value: 'value-of-agent-a' });
  });

  it('[K1] two agents asking for the same name each get their own value; one does not replace the other', async () => {
    t = await startTestGateway({ config });
    await stored(t, 'agent', 'API_KEY', 'key-of-a');
    await stored(t, 'agent2', 'API_KEY', 'key-of-b');
    const a = await t.connect('agent');
    const b = await t.connect('agent2');
    expect(await a.call('secret.get', { name: 'API_KEY' })).toEqual({ value: 'key-of-a' });
    expect(await b.call('secret.get', { name: 'API_KEY' })).toEqual({ value: 'key-of-b' });
  });
});
