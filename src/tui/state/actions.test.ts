import { describe, expect, it, vi } from 'vitest';
import type { GatewayClient } from '../../client/client.ts';
import { AskdockError, type QuestionRecord, type SecretRequestRecord } from '../../protocol/index.ts';
import { TuiActions } from './actions.ts';
import { createTuiStore } from './tui-store.ts';

const handedOff: QuestionRecord = {
  id: 'q1',
  sessionKey: 's1',
  askedBy: 'agent',
  mode: 'blocking',
  questions: [
    { id: 'env', header: 'Environment', question: 'Where should I deploy?', options: [{ label: 'Staging' }, { label: 'Production' }] },
    { id: 'notify', header: 'Notify', question: 'Who should hear?', multiSelect: true, options: [{ label: 'Email' }, { label: 'Slack' }] },
  ],
  createdAtMs: 1,
  expiresAtMs: null,
  status: 'pending',
  route: {
    escalation: 'prod',
    step: 0,
    notified: ['ana', 'bo', 'cy'],
    eligible: ['ana', 'bo', 'cy'],
    handoffs: [{ from: 'ana', to: 'identity:bo', atMs: 1, drafts: { env: ['Production'], notify: ['Slack', 'ops'] }, reached: ['bo'] }],
  },
};

function actionsFor(identity: string) {
  const store = createTuiStore();
  store.setState({ identity });
  return new TuiActions({} as GatewayClient, store, () => {});
}

describe('the TUI prompt\'s draft', () => {
  it('[E6] a question handed off to bo starts from what ana typed; ana\'s own terminal keeps hers', () => {
    const items = actionsFor('bo').draftOf(handedOff).items;
    expect(items.env.chosen).toEqual(['Production']);
    expect(items.notify).toMatchObject({ chosen: ['Slack'], other: 'ops' });
    expect(actionsFor('ana').draftOf(handedOff).items).toEqual({});
  });

  it('[E6] someone else who may answer starts from nothing: the drafts were for bo', () => {
    expect(actionsFor('cy').draftOf(handedOff).items).toEqual({});
  });
});

describe('the composer beside a routed question', () => {
  const routedTo = (eligible: string[]): QuestionRecord => ({ ...handedOff, runId: 'run-1', route: { escalation: 'prod', step: 0, notified: eligible, eligible } });
  function composerOf(identity: string, record: QuestionRecord) {
    const sent: { method: string; params: Record<string, unknown> }[] = [];
    const client = { request: async (method: string, params: Record<string, unknown>) => void sent.push({ method, params }) } as unknown as GatewayClient;
    const store = createTuiStore();
    store.setState({ identity, scopes: ['operator.questions'], sessionKey: 's1', questions: { [record.id]: record }, view: 'composer' });
    return { sent, store, actions: new TuiActions(client, store, () => {}) };
  }

  it('[E3][H4][V4] from someone it does not wait for, a plain line is an ordinary message, and they are told why; from ana it answers', async () => {
    const dee = composerOf('dee', routedTo(['ana']));
    await dee.actions.submitComposer('env: 2\nnotify: 1');
    expect(dee.sent).toEqual([{ method: 'chat.send', params: { sessionKey: 's1', message: 'env: 2\nnotify: 1', idempotencyKey: expect.any(String) } }]);
    expect(dee.store.getState().flash).toEqual({ text: 'You may not answer this question; your message was sent to the session', tone: 'warn' });
    const ana = composerOf('ana', routedTo(['ana']));
    await ana.actions.submitComposer('env: 2\nnotify: 1');
    expect(ana.sent[0]).toMatchObject({ method: 'chat.send', params: { replyTo: { questionId: 'q1', answers: { env: ['Production'], notify: ['Email'] } } } });
    expect(ana.store.getState().flash?.text ?? '').not.toMatch(/may not answer/);
  });
});

describe('the composer while a routed secret request waits', () => {
  const TOKEN = 'sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789';
  const request: SecretRequestRecord = {
    id: 'sec-1',
    name: 'DEPLOY_TOKEN',
    description: 'To push the release',
    sessionKey: 's1',
    askedBy: 'agent',
    createdAtMs: 1,
    expiresAtMs: 2,
    status: 'pending',
    route: { escalation: 'keys', step: 0, notified: ['ana'], eligible: ['ana'], names: { ana: 'Ana' } },
  };
  function composerOf(identity: string, provide: () => Promise<unknown>, values: unknown[] = []) {
    const sent: string[] = [];
    const call = async (method: string, params?: { value?: unknown }) => {
      sent.push(method);
      if (method === 'secret.provide') values.push(params?.value);
      return method === 'secret.provide' ? provide() : {};
    };
    const client = { request: call } as unknown as GatewayClient;
    const store = createTuiStore();
    store.setState({ identity, scopes: ['operator.questions'], sessionKey: 's1', secrets: { [request.id]: request }, view: 'composer', composerText: TOKEN });
    return { sent, store, actions: new TuiActions(client, store, () => {}) };
  }

  it('[E3][W3][W4] someone it does not wait for is not offered to send a credential as that secret, and /secret says whom it waits for', async () => {
    const dee = composerOf('dee', async () => ({ status: 'stored', name: 'DEPLOY_TOKEN' }));
    await dee.actions.submitComposer(TOKEN);
    expect(dee.store.getState().confirm?.asSecret).toBeUndefined();
    expect(dee.store.getState().confirm?.warning).not.toContain('DEPLOY_TOKEN');
    await dee.actions.submitComposer('/secret');
    expect(dee.store.getState().view).toBe('composer');
    expect(dee.store.getState().flash).toEqual({ text: 'The secret DEPLOY_TOKEN waits for Ana: you may not provide it', tone: 'warn' });
    // Ana, whom it waits for, is offered it.
    const ana = composerOf('ana', async () => ({ status: 'stored', name: 'DEPLOY_TOKEN' }));
    await ana.actions.submitComposer(TOKEN);
    expect(ana.store.getState().confirm?.asSecret?.name).toBe('DEPLOY_TOKEN');
  });

  it('[W4] "send as secret" keeps the text in the composer until the gateway stored it: a refusal leaves it there to edit', async () => {
    const refused = composerOf('ana', async () => Promise.reject(new AskdockError('FORBIDDEN', 'not eligible')));
    await refused.actions.submitComposer(TOKEN);
    refused.store.getState().confirm!.asSecret!.send();
    await vi.waitFor(() => expect(refused.store.getState().flash?.tone).toBe('error'));
    expect(refused.store.getState().flash?.text).toMatch(/^Secret not sent: .*FORBIDDEN/);
    expect(refused.store.getState().composerText).toBe(TOKEN);
    const stored = composerOf('ana', async () => ({ status: 'stored', name: 'DEPLOY_TOKEN' }));
    await stored.actions.submitComposer(TOKEN);
    stored.store.getState().confirm!.asSecret!.send();
    await vi.waitFor(() => expect(stored.store.getState().flash?.text).toMatch(/^Sent as the secret DEPLOY_TOKEN/));
    expect(stored.store.getState().composerText).toBe('');
    expect(stored.sent).toEqual(['secret.provide']);
  });

  it('[K1][W4] a pasted key is sent with its last line break (OpenSSH keys need it); a one-line token without stray spaces or its Enter', async () => {
    const values: unknown[] = [];
    const ana = composerOf('ana', async () => ({ status: 'stored', name: 'DEPLOY_TOKEN' }), values);
    const KEY = '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXk\n-----END OPENSSH PRIVATE KEY-----\n';
    expect(await ana.actions.provideSecret('sec-1', KEY)).toBe(true);
    expect(await ana.actions.provideSecret('sec-1', '  sk-token-1234567890  ')).toBe(true);
    expect(await ana.actions.provideSecret('sec-1', ' sk-token-1234567890\n')).toBe(true);
    expect(values).toEqual([KEY, 'sk-token-1234567890', 'sk-token-1234567890']);
  });
});

describe('a message typed before a session is open', () => {
  it('[V1] while still connecting (no hello yet) it says so and the text stays in the composer', async () => {
    const store = createTuiStore();
    store.setState({ composerText: 'deploy staging' });
    const actions = new TuiActions({} as GatewayClient, store, () => {});
    await actions.submitComposer('deploy staging');
    expect(store.getState().flash).toEqual({ text: 'Still connecting to the gateway: your message stays here; press Enter again once connected', tone: 'warn' });
    expect(store.getState().composerText).toBe('deploy staging');
  });

  it('[V1] `--session` with a key that opens nothing: the error, then a message says how to open one instead of waiting', async () => {
    const store = createTuiStore();
    const client = { request: async () => Promise.reject(new Error('no session nope')) } as unknown as GatewayClient;
    const actions = new TuiActions(client, store, () => {});
    await actions.openInitial('nope');
    expect(store.getState().flash?.text).toContain('Could not open session nope');
    await actions.submitComposer('hi');
    expect(store.getState().flash?.text).toBe('No session is open: /new starts one, /sessions lists them');
  });
});
