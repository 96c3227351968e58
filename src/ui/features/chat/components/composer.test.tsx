// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Composer } from './composer.tsx';

afterEach(cleanup);

function setup(overrides: Partial<Parameters<typeof Composer>[0]> = {}) {
  const onSend = vi.fn<(text: string) => Promise<void>>().mockResolvedValue(undefined);
  const onCommand = vi.fn<(command: string) => void>();
  render(<Composer onSend={onSend} onCommand={onCommand} {...overrides} />);
  return { onSend, onCommand, box: screen.getByRole('textbox', { name: 'Message' }), user: userEvent.setup() };
}

describe('Composer', () => {
  it('[U12] is a textbox named "Message"', () => {
    setup();
    expect(screen.getByRole('textbox', { name: 'Message' })).toBeInTheDocument();
  });

  it('Enter sends the message and empties the box', async () => {
    const { onSend, box, user } = setup();
    await user.type(box, 'hello there{Enter}');
    expect(onSend).toHaveBeenCalledExactlyOnceWith('hello there');
    expect(box).toHaveValue('');
  });

  it('Shift+Enter adds a line instead of sending', async () => {
    const { onSend, box, user } = setup();
    await user.type(box, 'first{Shift>}{Enter}{/Shift}second');
    expect(onSend).not.toHaveBeenCalled();
    expect(box).toHaveValue('first\nsecond');
    await user.keyboard('{Enter}');
    expect(onSend).toHaveBeenCalledExactlyOnceWith('first\nsecond');
  });

  it('[U3] Enter during IME composition never sends', async () => {
    const { onSend, box, user } = setup();
    await user.type(box, 'にほん');
    fireEvent.keyDown(box, { key: 'Enter', isComposing: true });
    fireEvent.keyDown(box, { key: 'Enter', keyCode: 229 });
    expect(onSend).not.toHaveBeenCalled();
    expect(box).toHaveValue('にほん');
    // The same key once composition has ended does send, so the guards above are what held it back.
    fireEvent.keyDown(box, { key: 'Enter' });
    await waitFor(() => expect(onSend).toHaveBeenCalledExactlyOnceWith('にほん'));
  });

  it('[U1] "/question" and Enter calls onCommand and sends nothing', async () => {
    const { onSend, onCommand, box, user } = setup();
    await user.type(box, '/question{Enter}');
    expect(onCommand).toHaveBeenCalledExactlyOnceWith('/question');
    expect(onSend).not.toHaveBeenCalled();
    expect(box).toHaveValue('');
  });

  it('sends other slash text as an ordinary message', async () => {
    const { onSend, onCommand, box, user } = setup();
    await user.type(box, '/questions please{Enter}');
    expect(onCommand).not.toHaveBeenCalled();
    expect(onSend).toHaveBeenCalledExactlyOnceWith('/questions please');
  });

  it('the Send button takes the same path as Enter', async () => {
    const { onSend, box, user } = setup();
    await user.type(box, 'by mouse');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(onSend).toHaveBeenCalledExactlyOnceWith('by mouse');
  });

  it('does not send blank text', async () => {
    const { onSend, box, user } = setup();
    await user.type(box, '   {Enter}');
    expect(onSend).not.toHaveBeenCalled();
  });

  it('a consumer key handler runs first and may keep Enter from sending', async () => {
    const { onSend, box, user } = setup({ onKeyDown: (event) => event.key === 'Enter' && event.preventDefault() });
    await user.type(box, 'kept{Enter}');
    expect(onSend).not.toHaveBeenCalled();
  });

  it('gives the text back and says why when sending fails', async () => {
    const onSend = vi.fn<(text: string) => Promise<void>>().mockRejectedValue(new Error('not connected to the gateway'));
    const { box, user } = setup({ onSend });
    await user.type(box, 'important{Enter}');
    await waitFor(() => expect(box).toHaveValue('important'));
    expect(screen.getByRole('alert')).toHaveTextContent('Not sent: not connected to the gateway');
  });
});
