import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { GatewayClient } from '../client/client.ts';
import type { HelloOk, QuestionRecord } from '../protocol/index.ts';
import { OFFER_AGENT, OFFER_PROJECT, OFFER_SESSION } from '../answers/kinds/approval-offers.ts';
import { TuiApp } from './app.tsx';
import { TuiActions } from './state/actions.ts';
import { bindClient } from './state/sync.ts';
import { untilFrame } from '../testing/ink-frames.ts';
import { createTuiStore } from './state/tui-store.ts';

/** An approval as the gateway asks it (G7): Allow, Deny, then the three offers. */
const approval: QuestionRecord = {
  id: 'q-approval',
  askedBy: 'agent',
  mode: 'blocking',
  sessionKey: 's1',
  questions: [
    {
      id: 'approval',
      kind: 'approval',
      header: 'Bash',
      question: 'Allow Bash(npm run test)?',
      options: [{ label: 'Allow' }, { label: 'Deny' }, { label: OFFER_SESSION }, { label: OFFER_PROJECT }, { label: OFFER_AGENT }],
    },
  ],
  createdAtMs: 1,
  expiresAtMs: null,
  status: 'pending',
};

let ink: ReturnType<typeof render> | undefined;
afterEach(() => ink?.unmount());

/** The TUI signed in with `scopes`: a client whose hello carries them and the pending approval of its open session. */
function start(scopes: string[]) {
  const hellos: ((h: HelloOk) => void)[] = [];
  const request = vi.fn(async (method: string, params: Record<string, unknown>) => (method === 'question.resolve' ? { status: 'answered', answers: params.answers } : {}));
  const client = { request, on: () => () => {}, onState: () => () => {}, onHello: (h: (x: HelloOk) => void) => (hellos.push(h), () => {}) } as unknown as GatewayClient;
  const store = createTuiStore();
  store.setState({ sessionKey: 's1' });
  bindClient(client, store, () => {});
  ink = render(<TuiApp store={store} actions={new TuiActions(client, store, () => {})} />);
  const hello = { auth: { identity: 'ana', role: 'operator', scopes }, snapshot: { cursor: 0, sessions: [], pendingQuestions: [approval] } } as unknown as HelloOk;
  for (const h of hellos) h(hello);
  return { request };
}

const until = (check: (frame: string) => boolean) => untilFrame(ink!, check);

describe('[G5][A3] the approval offers the TUI shows', () => {
  it('[G5][A3] a guest is shown Allow, Deny and the session offer; 3 then Enter answers with the session offer', async () => {
    const { request } = start(['operator.sessions.write']);
    const frame = await until((f) => f.includes('Allow Bash(npm run test)?'));
    expect(frame).toContain(`3. ${OFFER_SESSION}`);
    expect(frame).not.toContain(OFFER_PROJECT);
    expect(frame).not.toContain(OFFER_AGENT);
    ink!.stdin.write('3');
    ink!.stdin.write('\r');
    await vi.waitFor(() => expect(request).toHaveBeenCalledWith('question.resolve', expect.objectContaining({ answers: { approval: [OFFER_SESSION] } })), { timeout: 15_000 });
  });

  it('[G5][PT5] a guest\'s typed number counts the options it is shown, and the reply carries that reading', async () => {
    const hellos: ((h: HelloOk) => void)[] = [];
    const request = vi.fn(async () => ({}));
    const client = { request, on: () => () => {}, onState: () => () => {}, onHello: (h: (x: HelloOk) => void) => (hellos.push(h), () => {}) } as unknown as GatewayClient;
    const store = createTuiStore();
    store.setState({ sessionKey: 's1' });
    bindClient(client, store, () => {});
    // An agent's own approval item may list an offer first: the gateway's whole list reads "2" as Allow.
    const asked = { ...approval, runId: 'r1', questions: [{ ...approval.questions[0], options: [{ label: OFFER_PROJECT }, { label: 'Allow' }, { label: 'Deny' }] }] };
    const hello = { auth: { identity: 'ana', role: 'operator', scopes: ['operator.sessions.write'] }, snapshot: { cursor: 0, sessions: [], pendingQuestions: [asked] } } as unknown as HelloOk;
    for (const h of hellos) h(hello);
    await new TuiActions(client, store, () => {}).submitComposer('2');
    expect(request).toHaveBeenCalledWith('chat.send', expect.objectContaining({ message: '2', replyTo: { questionId: 'q-approval', answers: { approval: ['Deny'] } } }));
  });

  it('[G5][A3] each identity is shown the offers it may make: a guest the session one, operator.questions all three', async () => {
    const shown = async (scopes: string[]) => {
      start(scopes);
      const frame = await until((f) => f.includes('Allow Bash(npm run test)?'));
      ink!.unmount();
      return [OFFER_SESSION, OFFER_PROJECT, OFFER_AGENT].filter((label) => frame.includes(label));
    };
    expect(await shown(['operator.sessions.write'])).toEqual([OFFER_SESSION]);
    expect(await shown(['operator.questions'])).toEqual([OFFER_SESSION, OFFER_PROJECT, OFFER_AGENT]);
  });
});
