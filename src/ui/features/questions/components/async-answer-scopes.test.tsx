// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { dock, dockTestHooks } from '../../../../testing/question-dock.tsx';
import { composer, lunchRecord, scopedClient, setup } from '../../../../testing/ui-questions.tsx';
import { QuestionDock } from '../index.tsx';

dockTestHooks();

describe('an async answer from a sign-in that may not send messages (Q9, A5)', () => {
  it('[Q9][A5] operator.questions alone answers an async question by question.resolve, not by a chat.send the gateway would refuse', async () => {
    const user = userEvent.setup();
    const { client, render } = setup([lunchRecord()], scopedClient(['operator.questions']));
    render(<QuestionDock sessionKey="s1" composer={composer} />);
    await user.click(within(dock()).getByRole('radio', { name: 'Sushi' }));
    await user.click(within(dock()).getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Questions' })).toBeNull());
    const answers = client.request.mock.calls.filter(([method]) => method === 'question.resolve' || method === 'chat.send');
    const calls = answers.map(([method, params]) => [method, params]);
    expect(calls).toEqual([['question.resolve', expect.objectContaining({ id: 'q-lunch', answers: { lunch: ['Sushi'] }, surface: 'control-ui' })]]);
  });
});
