// @vitest-environment jsdom
import { act, fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { QuestionRecord } from '../../../../protocol/index.ts';
import { dockFrames } from '../../../../testing/dock-frames.ts';
import { composer, deployRecord, lunchRecord, setup } from '../../../../testing/ui-questions.tsx';
import { questionsKey } from '../api/get-questions.ts';
import { QuestionDock } from '../index.tsx';
import { dockUiActions } from '../stores/dock-ui.ts';

const { nextFrame } = dockFrames();

/** The page as a reload leaves it: the dock mounts while its questions are still being read; `load` hands them over. */
function reloading() {
  const { client, queryClient, render } = setup([]);
  queryClient.removeQueries({ queryKey: questionsKey });
  let answer: (records: { questions: QuestionRecord[] }) => void = () => {};
  client.request.mockImplementation(async (method) => {
    if (method === 'question.list') return new Promise((resolve) => (answer = resolve));
    if (method === 'secret.list') return { requests: [] };
    throw new Error(`unexpected ${method}`);
  });
  render(<QuestionDock sessionKey="s1" composer={composer} />);
  // The cache tells the dock in a task of its own: loaded once the dock shows them.
  const load = async (records: QuestionRecord[]) => {
    await act(async () => answer({ questions: records }));
    await screen.findByRole('region', { name: 'Questions' });
  };
  return { load };
}

describe('a blocking question open at load takes focus as an arriving one does (U1)', () => {
  it('[U1] already open when the dock loads: its first choice takes focus after the first frame, and a number key picks in it', async () => {
    setup([deployRecord()]).render(<QuestionDock sessionKey="s1" composer={composer} />);
    const first = screen.getByRole('radio', { name: 'Staging (Recommended)' });
    expect(document.body).toHaveFocus();
    await nextFrame();
    expect(first).toHaveFocus();
    fireEvent.keyDown(first, { key: '2', code: 'Digit2' });
    expect(screen.getByRole('radio', { name: 'Production' })).toBeChecked();
  });

  it('[U1] read after the dock mounted (the list answers after the page is up): the same', async () => {
    const { load } = reloading();
    await load([deployRecord()]);
    await nextFrame();
    expect(screen.getByRole('radio', { name: 'Staging (Recommended)' })).toHaveFocus();
  });

  it('[U8] an async question open at load takes no focus and leaves the composer usable', async () => {
    setup([lunchRecord()]).render(<QuestionDock sessionKey="s1" composer={composer} />);
    await nextFrame();
    expect(document.body).toHaveFocus();
    expect(screen.getByRole('textbox', { name: 'Message' })).toBeVisible();
  });

  it('[U1] a field the person is typing in elsewhere keeps its focus', async () => {
    const search = document.createElement('input');
    search.setAttribute('aria-label', 'Search');
    document.body.append(search);
    search.focus();
    const { load } = reloading();
    await load([deployRecord()]);
    await nextFrame();
    expect(search).toHaveFocus();
    search.remove();
  });

  it('[U1] someone typing in the composer: the question opens expanded and takes focus as an arriving one does; collapsing brings the text back', async () => {
    const { load } = reloading();
    const message = screen.getByRole('textbox', { name: 'Message' });
    act(() => message.focus());
    fireEvent.change(message, { target: { value: 'half a sentence' } });
    await load([deployRecord()]);
    await nextFrame();
    expect(screen.getByRole('radio', { name: 'Staging (Recommended)' })).toHaveFocus();
    fireEvent.click(screen.getByRole('button', { name: 'Collapse questions' }));
    expect(screen.getByRole('textbox', { name: 'Message' })).toHaveValue('half a sentence');
  });

  it('[U1] a dock the person collapsed before the reload stays collapsed and takes no focus', async () => {
    const { load } = reloading();
    act(() => dockUiActions().dockCollapsed('s1'));
    await load([deployRecord()]);
    await nextFrame();
    expect(document.body).toHaveFocus();
    expect(screen.getByRole('button', { name: 'Expand questions' })).toBeInTheDocument();
  });
});
