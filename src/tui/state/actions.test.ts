import { describe, expect, it } from 'vitest';
import type { GatewayClient } from '../../client/client.ts';
import type { QuestionRecord } from '../../protocol/index.ts';
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
