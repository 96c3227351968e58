// @vitest-environment jsdom
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { QuestionRecord } from '../../../../protocol/index.ts';
import { OFFER_AGENT, OFFER_PROJECT, OFFER_SESSION } from '../../../../answers/kinds/approval-offers.ts';
import { dockCodeReady, QuestionDock } from '../index.tsx';
import { composer, deployRecord, fakeClient, resetStores, setup } from '../../../../testing/ui-questions.tsx';

/** An approval as the gateway asks it (G7): Allow, Deny, then the offers, each naming its rule. */
const approvalRecord = (): QuestionRecord =>
  deployRecord({
    id: 'q-approval',
    questions: [
      {
        id: 'approval',
        kind: 'approval',
        header: 'Bash',
        question: 'Allow Bash(npm run test)? No rule matched.',
        detail: 'npm run test',
        options: [
          { label: 'Allow' },
          { label: 'Deny' },
          { label: OFFER_SESSION, description: 'Bash(npm run test *)' },
          { label: OFFER_PROJECT, description: 'Bash(npm run test *)' },
          { label: OFFER_AGENT, description: 'Bash(npm run test *)' },
        ],
      },
    ],
  });

const dock = () => screen.getByRole('region', { name: 'Questions' });
const ctrlEnter = '{Control>}{Enter}{/Control}';
const resolves = (client: ReturnType<typeof setup>['client']) =>
  client.request.mock.calls.filter(([method]) => method === 'question.resolve').map(([, params]) => params);

beforeAll(() => dockCodeReady);
beforeEach(resetStores);
afterEach(cleanup);

describe('[G7] the approval in the dock', () => {
  it('[G7][U12] lists Allow, Deny and the three offers as radios named by their label, each offer with its rule as its description', async () => {
    setup([approvalRecord()]).render(<QuestionDock sessionKey="s1" composer={composer} />);
    const radios = within(dock()).getAllByRole('radio');
    expect(radios.map((r) => r.getAttribute('aria-keyshortcuts'))).toEqual(['1', '2', '3', '4', '5']);
    for (const label of [OFFER_SESSION, OFFER_PROJECT, OFFER_AGENT]) {
      const radio = within(dock()).getByRole('radio', { name: label });
      expect(radio).toHaveAccessibleDescription('Bash(npm run test *)');
    }
    // Q12: typed text denies with it as the agent's message, and the field says so.
    expect(within(dock()).getByRole('textbox', { name: 'Other' })).toHaveAttribute('placeholder', 'Or deny, telling the agent why');
    const rule = within(dock()).getAllByText('Bash(npm run test *)')[0];
    expect(rule).toHaveClass('qd-option-rule');
    const { violations } = await axe.run(dock(), { rules: { 'color-contrast': { enabled: false } } });
    expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
  });

  it.each([
    ['3', OFFER_SESSION, 'session'],
    ['4', OFFER_PROJECT, 'project'],
    ['5', OFFER_AGENT, 'agent'],
  ])('[G12][U3] key %s picks "%s" and the resolve asks for a %s grant with it', async (key, label, scope) => {
    const user = userEvent.setup();
    const { client, render } = setup([approvalRecord()]);
    render(<QuestionDock sessionKey="s1" composer={composer} />);
    await user.keyboard(key);
    expect(within(dock()).getByRole('radio', { name: label })).toBeChecked();
    await user.keyboard(ctrlEnter);
    expect(resolves(client)).toEqual([expect.objectContaining({ id: 'q-approval', answers: { approval: [label] }, grant: { scope } })]);
  });

  it('[G7] Allow (key 1) and Deny (key 2) ask for no grant: an Allow covers this request only', async () => {
    const user = userEvent.setup();
    const { client, render } = setup([approvalRecord()]);
    render(<QuestionDock sessionKey="s1" composer={composer} />);
    await user.keyboard('1');
    await user.keyboard(ctrlEnter);
    const [sent] = resolves(client);
    expect(sent).toEqual(expect.objectContaining({ answers: { approval: ['Allow'] } }));
    expect(sent).not.toHaveProperty('grant');
  });

  it('[G12] a choice question whose option reads like an offer asks for no grant', async () => {
    const user = userEvent.setup();
    const record = deployRecord({ questions: [{ id: 'ask', header: 'Ask', question: 'Which?', options: [{ label: OFFER_SESSION, description: 'for now' }, { label: 'No' }] }] });
    const { client, render } = setup([record]);
    render(<QuestionDock sessionKey="s1" composer={composer} />);
    expect(screen.getByText(OFFER_SESSION).closest('.qd-option')?.querySelector('.qd-option-rule')).toBeNull();
    await user.keyboard('1');
    await user.keyboard(ctrlEnter);
    expect(resolves(client)[0]).not.toHaveProperty('grant');
  });
});

/** A client signed in as `identity` holding `scopes` (the hello's `auth`). */
const clientWith = (identity: string, scopes: string[]) => {
  const client = fakeClient(identity);
  (client as { hello: unknown }).hello = { auth: { identity, role: 'operator', scopes } };
  return client;
};
const radioNames = () => within(dock()).getAllByRole('radio').map((r) => r.getAttribute('aria-keyshortcuts') + ' ' + r.closest('.qd-option')?.querySelector('label')?.textContent);

describe('[G5][A3] the offers a signed-in identity may choose', () => {
  it('[G5][A3] a guest sees Allow, Deny and "Always allow in this session" only, numbered 1 to 3; 4 goes to Other', async () => {
    const user = userEvent.setup();
    setup([approvalRecord()], clientWith('guest', ['operator.sessions.write'])).render(<QuestionDock sessionKey="s1" composer={composer} />);
    expect(radioNames()).toEqual(['1 Allow', '2 Deny', `3 ${OFFER_SESSION}`]);
    expect(within(dock()).queryByText(OFFER_PROJECT)).toBeNull();
    expect(within(dock()).queryByText(OFFER_AGENT)).toBeNull();
    await user.keyboard('4');
    expect(within(dock()).getByRole('textbox', { name: 'Other' })).toHaveFocus();
  });

  it('[G5][U3] a guest\'s key 3 picks the session offer, arrows move among the shown options, and the resolve asks for a session grant', async () => {
    const user = userEvent.setup();
    const { client, render } = setup([approvalRecord()], clientWith('guest', ['operator.sessions.write']));
    render(<QuestionDock sessionKey="s1" composer={composer} />);
    await user.keyboard('3');
    expect(within(dock()).getByRole('radio', { name: OFFER_SESSION })).toBeChecked();
    // The session offer is the last shown: the arrow goes round to Allow, and back.
    await user.keyboard('{ArrowDown}');
    expect(within(dock()).getByRole('radio', { name: 'Allow' })).toBeChecked();
    await user.keyboard('{ArrowUp}');
    expect(within(dock()).getByRole('radio', { name: OFFER_SESSION })).toBeChecked();
    await user.keyboard(ctrlEnter);
    expect(resolves(client)).toEqual([expect.objectContaining({ answers: { approval: [OFFER_SESSION] }, grant: { scope: 'session' } })]);
  });

  it('[G5][A3] each identity sees the offers it may make: a guest the session one, operator.questions and an admin all three', () => {
    const seen = (scopes: string[]) => {
      const { unmount } = setup([approvalRecord()], clientWith('ana', scopes)).render(<QuestionDock sessionKey="s1" composer={composer} />);
      const names = radioNames();
      unmount();
      return names;
    };
    const all = ['1 Allow', '2 Deny', `3 ${OFFER_SESSION}`, `4 ${OFFER_PROJECT}`, `5 ${OFFER_AGENT}`];
    expect(seen(['operator.sessions.write'])).toEqual(all.slice(0, 3));
    expect(seen(['operator.questions'])).toEqual(all);
    expect(seen(['operator.admin'])).toEqual(all);
  });
});
