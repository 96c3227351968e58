// @vitest-environment jsdom
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../../../protocol/index.ts';
import { lunchRecord, resetStores, setup } from '../../../../testing/ui-questions.tsx';
import { ReplyAnswers } from './reply-answers.tsx';

const reply = (text: string, over: Partial<ChatMessage> = {}): ChatMessage => ({
  id: 'm-reply',
  sessionKey: 's1',
  role: 'user',
  text,
  authorId: 'operator',
  replyTo: { questionId: 'q-lunch' },
  createdAtMs: 2,
  seq: 2,
  ...over,
});

beforeEach(resetStores);
afterEach(cleanup);

describe('an async answer in the transcript', () => {
  it('[U9][Q9] shows the answers the reply carries beside their header chips, not the quoted text', () => {
    const { render } = setup([lunchRecord({ status: 'answered', answers: { lunch: ['Sushi'] } })]);
    const { container } = render(<ReplyAnswers message={reply('> Lunch\nSushi', { replyTo: { questionId: 'q-lunch', answers: { lunch: ['Sushi'] } } })} />);
    const rows = within(screen.getByRole('list')).getAllByRole('listitem');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toHaveTextContent('Lunch');
    expect(within(rows[0]).getByText('Sushi')).toBeInTheDocument();
    expect(container).not.toHaveTextContent('> Lunch');
  });

  it('[U9] a reply edited away from the Q9 form, or for a question not known here, keeps its saved text', () => {
    const { render } = setup([lunchRecord({ status: 'answered' })]);
    render(
      <>
        <ReplyAnswers message={reply('Sushi, and a miso soup please')} />
        <ReplyAnswers message={reply('> Dinner\nRamen', { id: 'm-other', replyTo: { questionId: 'q-unknown' } })} />
      </>,
    );
    expect(screen.getByText('Sushi, and a miso soup please')).toBeInTheDocument();
    expect(screen.getByText(/> Dinner\s+Ramen/)).toBeInTheDocument();
    expect(screen.queryByRole('list')).toBeNull();
  });
});
