// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { QuestionRecord } from '../../../../protocol/index.ts';
import type { InputSpec } from '../../../../protocol/rules.ts';
import { deployRecord, fakeClient, resetStores, setup } from '../../../../testing/ui-questions.tsx';
import QuestionLinkPage from './question-link-page.tsx';

/** A one-question `input` prompt asking "How many replicas?" with `input`. */
function inputRecord(input: InputSpec): QuestionRecord {
  const question = input.type === 'boolean' ? 'Restart after deploy?' : 'How many replicas?';
  return deployRecord({ sessionKey: undefined, questions: [{ id: 'n', header: 'Replicas', question, options: [], kind: 'input', input }] });
}

function clientWith(record: QuestionRecord) {
  const client = fakeClient();
  const base = client.request.getMockImplementation()!;
  client.request.mockImplementation(async (method, params) => (method === 'question.get' ? { question: record } : base(method, params)));
  return client;
}

const resolves = (client: ReturnType<typeof fakeClient>) => client.request.mock.calls.filter(([method]) => method === 'question.resolve');

beforeEach(resetStores);
afterEach(cleanup);

describe('TypedInput', () => {
  it('[Q12][U12] a number question is a number field named by its question, with its minimum and maximum', async () => {
    setup([], clientWith(inputRecord({ type: 'integer', minimum: 1, maximum: 10 }))).render(<QuestionLinkPage id="q-deploy" />);
    const field = await screen.findByRole('spinbutton', { name: 'How many replicas?' });
    expect(field).toHaveAttribute('type', 'number');
    expect(field).toHaveAttribute('min', '1');
    expect(field).toHaveAttribute('max', '10');
    expect(screen.queryByRole('textbox', { name: 'Other' })).toBeNull();
  });

  it('[Q12][Q5][U3] 0 under a minimum of 1 is refused beside the field and nothing is sent; digits type, Ctrl+Enter sends a valid value', async () => {
    const user = userEvent.setup();
    const client = clientWith(inputRecord({ type: 'integer', minimum: 1, maximum: 10 }));
    setup([], client).render(<QuestionLinkPage id="q-deploy" />);
    const field = await screen.findByRole('spinbutton', { name: 'How many replicas?' });
    await user.type(field, '0');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    const alert = within(screen.getByRole('group', { name: 'Replicas' })).getByRole('alert');
    expect(alert).toHaveTextContent('Replicas must be at least 1 (minimum).');
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(field).toHaveAccessibleDescription('Replicas must be at least 1 (minimum).');
    expect(resolves(client)).toEqual([]);

    await user.clear(field);
    await user.type(field, '3');
    expect(field).toHaveValue(3);
    expect(field).not.toHaveAttribute('aria-invalid');
    await user.keyboard('{Control>}{Enter}{/Control}');
    await waitFor(() => expect(resolves(client)).toEqual([['question.resolve', expect.objectContaining({ id: 'q-deploy', answers: { n: ['3'] } })]]));
  });

  it('[Q12] a boolean question is Yes / No, and the number keys choose them', async () => {
    const user = userEvent.setup();
    const client = clientWith(inputRecord({ type: 'boolean' }));
    setup([], client).render(<QuestionLinkPage id="q-deploy" />);
    const group = await screen.findByRole('radiogroup', { name: 'Restart after deploy?' });
    const yes = within(group).getByRole('radio', { name: 'Yes' });
    expect(within(group).getAllByRole('radio').map((r) => r.getAttribute('value'))).toEqual(['true', 'false']);
    await user.click(yes);
    await user.keyboard('2');
    expect(within(group).getByRole('radio', { name: 'No' })).toBeChecked();
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(resolves(client)).toEqual([['question.resolve', expect.objectContaining({ answers: { n: ['false'] } })]]));
  });

  it('[Q12] an optional boolean may be left empty: chosen again it clears, and the prompt is sent without it', async () => {
    const user = userEvent.setup();
    const client = clientWith(inputRecord({ type: 'boolean', required: false }));
    setup([], client).render(<QuestionLinkPage id="q-deploy" />);
    const yes = await screen.findByRole('radio', { name: 'Yes' });
    await user.click(yes);
    await user.click(yes);
    expect(yes).not.toBeChecked();
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(resolves(client)).toEqual([['question.resolve', expect.objectContaining({ answers: {} })]]));
  });

  it('[X5] a default is prefilled in the field, editable, and Submit without editing sends it', async () => {
    const user = userEvent.setup();
    const client = clientWith(inputRecord({ type: 'integer', minimum: 1, maximum: 10, default: 3 }));
    setup([], client).render(<QuestionLinkPage id="q-deploy" />);
    const field = await screen.findByRole('spinbutton', { name: 'How many replicas?' });
    expect(field).toHaveValue(3);
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(resolves(client)).toEqual([['question.resolve', expect.objectContaining({ answers: { n: ['3'] } })]]));
  });

  it('[X5] a prefilled default can be replaced before sending', async () => {
    const user = userEvent.setup();
    const client = clientWith(inputRecord({ type: 'string', default: 'eu-west' }));
    setup([], client).render(<QuestionLinkPage id="q-deploy" />);
    const field = await screen.findByRole('textbox', { name: 'How many replicas?' });
    expect(field).toHaveValue('eu-west');
    await user.clear(field);
    await user.type(field, 'us-east');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(resolves(client)).toEqual([['question.resolve', expect.objectContaining({ answers: { n: ['us-east'] } })]]));
  });

  it('[X5] a boolean\'s default is the chosen radio, and Submit sends it', async () => {
    const user = userEvent.setup();
    const client = clientWith(inputRecord({ type: 'boolean', default: false }));
    setup([], client).render(<QuestionLinkPage id="q-deploy" />);
    expect(await screen.findByRole('radio', { name: 'No' })).toBeChecked();
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(resolves(client)).toEqual([['question.resolve', expect.objectContaining({ answers: { n: ['false'] } })]]));
  });
});
