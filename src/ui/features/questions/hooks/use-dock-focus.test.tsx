// @vitest-environment jsdom
import { act, fireEvent, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { dockFrames } from '../../../../testing/dock-frames.ts';
import { composer, deployRecord, setup } from '../../../../testing/ui-questions.tsx';
import { QuestionDock } from '../index.tsx';
import { useDraftsStore } from '../stores/drafts.ts';

const { nextFrame } = dockFrames();

/** The composer has focus (the page as a blocking question finds it); the question's event comes. */
function arrive(over: Parameters<typeof deployRecord>[0] = {}) {
  const { client, render } = setup([]);
  render(<QuestionDock sessionKey="s1" composer={composer} />);
  const message = screen.getByRole('textbox', { name: 'Message' });
  act(() => message.focus());
  const focus = vi.spyOn(HTMLElement.prototype, 'focus');
  act(() => client.emit('question.requested', { question: deployRecord(over) }));
  return { client, message, focus };
}

const oneQuestion = () => ({ questions: deployRecord().questions.slice(0, 1) });

describe('a blocking question paints before it takes focus (U6, U3)', () => {
  it('[U6] its event renders the dock without focus(): the first choice takes focus after the next frame', async () => {
    const { focus } = arrive();
    const first = screen.getByRole('radio', { name: 'Staging (Recommended)' });
    expect(focus).not.toHaveBeenCalled();
    // The hidden composer let go of focus at once, not in the browser's own blur after the frame.
    expect(document.body).toHaveFocus();
    await nextFrame();
    expect(first).toHaveFocus();
    expect(focus).toHaveBeenCalledTimes(1);
  });

  it('[U6] the composer lets go of focus before the dock is written into the page, so the blur restyles nothing new', () => {
    const { client, render } = setup([]);
    render(<QuestionDock sessionKey="s1" composer={composer} />);
    const message = screen.getByRole('textbox', { name: 'Message' });
    act(() => message.focus());
    const dockShownAtBlur: boolean[] = [];
    message.addEventListener('blur', () => dockShownAtBlur.push(screen.queryByRole('region', { name: 'Questions' }) !== null));
    act(() => client.emit('question.requested', { question: deployRecord() }));
    expect(screen.getByRole('region', { name: 'Questions' })).toBeInTheDocument();
    expect(dockShownAtBlur).toEqual([false]);
    expect(document.body).toHaveFocus();
  });

  it('[U3] a number pressed before that frame picks in the question, and the composer never gets the key', async () => {
    const { message } = arrive();
    const typed = vi.fn();
    message.addEventListener('keydown', typed);
    // false: the key's own default (typing into the hidden composer) is cancelled.
    expect(fireEvent.keyDown(message, { key: '2', code: 'Digit2' })).toBe(false);
    expect(typed).not.toHaveBeenCalled();
    expect(screen.getByRole('radio', { name: 'Production' })).toBeChecked();
    expect(screen.getByRole('radio', { name: 'Production' })).toHaveFocus();
    await nextFrame();
    expect(screen.getByRole('radio', { name: 'Production' })).toHaveFocus();
  });

  it('[U3] Ctrl+Enter pressed before that frame submits the question, not the composer', async () => {
    // A draft kept from before (a reload): the question can be sent with no pick first.
    const record = deployRecord(oneQuestion());
    useDraftsStore.getState().actions.optionPicked(record.id, record.questions[0], 'Production');
    const { client, message } = arrive(oneQuestion());
    const sent = vi.fn();
    message.addEventListener('keydown', sent);
    expect(fireEvent.keyDown(message, { key: 'Enter', code: 'Enter', ctrlKey: true })).toBe(false);
    expect(sent).not.toHaveBeenCalled();
    await act(async () => {});
    expect(client.request).toHaveBeenCalledWith('question.resolve', expect.objectContaining({ id: 'q-deploy', answers: { env: ['Production'] } }));
  });

  it('[U6] focus the person moves before that frame stays where they put it', async () => {
    const { message } = arrive();
    const other = document.createElement('button');
    document.body.append(other);
    act(() => other.focus());
    await nextFrame();
    expect(other).toHaveFocus();
    expect(message).not.toHaveFocus();
    other.remove();
  });
});
