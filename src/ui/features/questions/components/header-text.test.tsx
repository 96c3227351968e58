// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cutHeader, type QuestionRecord } from '../../../../protocol/index.ts';
import { deployRecord, fakeClient, resetStores, setup } from '../../../../testing/ui-questions.tsx';
import QuestionLinkPage from './question-link-page.tsx';

function clientWith(record: QuestionRecord) {
  const client = fakeClient();
  const base = client.request.getMockImplementation()!;
  client.request.mockImplementation(async (method, params) => (method === 'question.get' ? { question: record } : base(method, params)));
  return client;
}

const shipRecord = (header: string) =>
  deployRecord({
    sessionKey: undefined,
    questions: [{ id: 'ship', header, question: 'Ship the release now?', options: [{ label: 'Yes' }, { label: 'No' }] }],
  });

beforeEach(resetStores);
afterEach(cleanup);

describe('a cut header', () => {
  it('[Q2] shows its ellipsis, and the link page title and the question group give the whole question on hover and to screen readers', async () => {
    setup([], clientWith(shipRecord(cutHeader('Ship the release now')))).render(<QuestionLinkPage id="q-deploy" />);
    const title = await screen.findByRole('heading', { level: 1, name: 'Ship the release now?' });
    expect(title).toHaveTextContent('Ship the…');
    expect(title.querySelector('[title]')).toHaveAttribute('title', 'Ship the release now?');
    const group = screen.getByRole('group', { name: 'Ship the release now?' });
    expect(group.querySelector('[title]')).toHaveAttribute('title', 'Ship the release now?');
  });

  it('[Q2] a header that fits is shown and named as it is, with no hover text', async () => {
    setup([], clientWith(shipRecord('Release'))).render(<QuestionLinkPage id="q-deploy" />);
    const title = await screen.findByRole('heading', { level: 1, name: 'Release' });
    expect(title.querySelector('[title]')).toBeNull();
    expect(screen.getByRole('group', { name: 'Release' })).toBeInTheDocument();
  });
});
