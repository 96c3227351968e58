import { afterEach, describe, expect, it, vi } from 'vitest';
import { KEY, startTui, type TuiHarness } from '../testing/tui-harness.tsx';

let h: TuiHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const TOKEN = 'sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789';

/** The agent asks for DEPLOY_TOKEN in the open session; `/secret` opens its masked field. */
async function openSecretField(): Promise<{ id: string }> {
  const request = await h!.agent.call('secret.request', { name: 'DEPLOY_TOKEN', description: 'To push the release', sessionKey: h!.sessionKey });
  await h!.waitFor('/secret to provide it');
  await h!.type('/secret');
  await h!.press(KEY.enter);
  await h!.waitFor('Secret DEPLOY_TOKEN');
  return request;
}

describe('the composer while the agent waits for a secret', () => {
  it('[W3][W4] a credential-shaped message offers to go as the pending secret: s stores it, and no message is saved', async () => {
    h = await startTui();
    const { id } = await h.agent.call('secret.request', { name: 'OPENAI_API_KEY', description: 'To call the model', sessionKey: h.sessionKey });
    await h.type(TOKEN);
    await h.press(KEY.enter);
    await h.waitFor('s/Enter send as secret OPENAI_API_KEY');
    await h.press('s');
    await h.waitFor('Sent as the secret OPENAI_API_KEY');
    expect(await h.agent.call('secret.waitResult', { id })).toMatchObject({ status: 'stored', name: 'OPENAI_API_KEY' });
    expect((await h.admin.call('chat.history', { sessionKey: h.sessionKey })).messages).toEqual([]);
    expect(h.screen()).not.toContain(TOKEN.slice(0, 12));
  });

  it('[K1][W4] a secret request in the open session is told under the composer; /secret opens a masked field whose value shows nowhere', async () => {
    h = await startTui();
    const { id } = await h.agent.call('secret.request', { name: 'DEPLOY_TOKEN', description: 'To push the release', sessionKey: h.sessionKey });
    await h.waitFor('The agent asks for the secret DEPLOY_TOKEN · /secret to provide it');
    await h.type('/secret');
    await h.press(KEY.enter);
    await h.waitFor('Secret DEPLOY_TOKEN');
    expect(h.screen()).toContain('To push the release');
    await h.type('hunter2-plain');
    await h.waitFor('•••••••••••••');
    expect(h.screen()).not.toContain('hunter2');
    expect(JSON.stringify(h.store.getState())).not.toContain('hunter2');
    await h.press(KEY.enter);
    expect(await h.agent.call('secret.waitResult', { id })).toMatchObject({ status: 'stored', name: 'DEPLOY_TOKEN' });
    await h.waitForNo('/secret to provide it');
    expect(h.screen()).not.toContain('hunter2');
  });

  it('[K1][W4] a newer secret request arriving while a value is typed does not swap the field: the value goes to the one it was typed for', async () => {
    h = await startTui();
    const first = await openSecretField();
    await h.type('half-typed');
    await h.waitFor('••••••••••');
    const second = await h.agent.call('secret.request', { name: 'NPM_TOKEN', description: 'To publish', sessionKey: h.sessionKey });
    await vi.waitFor(() => expect(h!.store.getState().secrets[second.id]).toBeDefined());
    await h.type('-rest');
    await h.press(KEY.enter);
    expect(await h.agent.call('secret.waitResult', { id: first.id })).toMatchObject({ status: 'stored', name: 'DEPLOY_TOKEN' });
    await h.waitFor('/secret to provide it');
    expect(h.screen()).toContain('NPM_TOKEN');
    expect(h.store.getState().secrets[second.id]?.status).toBe('pending');
  });

  it('[K1][W4] after the field is closed, the hint under the composer names the request /secret would open: the newest', async () => {
    h = await startTui();
    await h.agent.call('secret.request', { name: 'DEPLOY_TOKEN', description: 'To push the release', sessionKey: h.sessionKey });
    await h.waitFor('The agent asks for the secret DEPLOY_TOKEN · /secret to provide it');
    await h.type('/secret');
    await h.press(KEY.enter);
    await h.waitFor('Secret DEPLOY_TOKEN');
    await h.press(KEY.esc);
    await h.agent.call('secret.request', { name: 'NPM_TOKEN', description: 'To publish', sessionKey: h.sessionKey });
    await h.waitFor('The agent asks for the secret NPM_TOKEN · /secret to provide it');
    await h.type('/secret');
    await h.press(KEY.enter);
    await h.waitFor('Secret NPM_TOKEN');
  });

  it('[K1][W4] Skip under the masked field declines the request, as a question\'s Skip does: the agent learns it was skipped', async () => {
    h = await startTui();
    const { id } = await openSecretField();
    await h.type('not-this-one');
    await h.waitFor('••••••••••••');
    await h.press(KEY.down);
    await h.waitFor('› Skip');
    await h.press(KEY.enter);
    expect(await h.agent.call('secret.waitResult', { id })).toMatchObject({ status: 'skipped', name: 'DEPLOY_TOKEN' });
    await h.waitFor('Skipped the secret DEPLOY_TOKEN');
    await h.waitForNo('/secret to provide it');
    expect(h.screen()).not.toContain('Secret DEPLOY_TOKEN');
  });
});
