// @vitest-environment jsdom
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { QuestionRecord } from '../../../../protocol/index.ts';
import { dockCodeReady, QuestionDock } from '../index.tsx';
import { composer, deployRecord, resetStores, setup } from '../../../../testing/ui-questions.tsx';
import { QuestionDetail } from './question-detail.tsx';

const DIFF = ['--- a/app.ts', '+++ b/app.ts', '@@ -1,2 +1,2 @@', '-const key = "sk-live-0123456789abcdef0123";', '+const key = process.env.KEY;', '', '\tkept'].join('\n');

function approval(detail: string): QuestionRecord {
  return deployRecord({
    id: 'q-approve',
    questions: [{ id: 'approve', header: 'Bash', question: 'Allow Edit app.ts?', options: [{ label: 'Allow' }, { label: 'Deny' }, { label: 'Always allow' }], detail }],
  });
}

const clipboard = Object.getOwnPropertyDescriptor(navigator, 'clipboard');
beforeAll(() => dockCodeReady);
beforeEach(resetStores);
afterEach(() => {
  cleanup();
  if (clipboard) Object.defineProperty(navigator, 'clipboard', clipboard);
  else delete (navigator as { clipboard?: unknown }).clipboard;
  delete (document as { execCommand?: unknown }).execCommand;
});

describe('QuestionDetail', () => {
  it('[X2] shows the detail as given and only as text: markup in it is never read as HTML', () => {
    const detail = '<img src=x onerror="window.hacked=1"><script>window.hacked=1</script>\n  indented\ttab\n';
    render(<QuestionDetail detail={detail} />);
    const block = screen.getByRole('group', { name: 'Detail' });
    expect(block.textContent).toBe(detail);
    expect(block.querySelector('img, script')).toBeNull();
    expect(screen.getByText('2 lines')).toBeInTheDocument();
  });

  it('[X2] Copy puts the exact detail on the clipboard and says so', async () => {
    const writeText = vi.fn(async () => {});
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    render(<QuestionDetail detail={DIFF} />);
    await userEvent.click(screen.getByRole('button', { name: 'Copy' }));
    expect(writeText).toHaveBeenCalledWith(DIFF);
    expect(screen.getByRole('status')).toHaveTextContent('Copied');
  });

  it('[X2] without navigator.clipboard (plain http) Copy falls back to execCommand, and where that fails too it selects the text and says how to copy', async () => {
    Object.defineProperty(navigator, 'clipboard', { value: undefined, configurable: true });
    const execCommand = vi.fn(() => true);
    Object.defineProperty(document, 'execCommand', { value: execCommand, configurable: true });
    render(<QuestionDetail detail={DIFF} />);
    await userEvent.click(screen.getByRole('button', { name: 'Copy' }));
    expect(execCommand).toHaveBeenCalledWith('copy');
    expect(screen.getByRole('status')).toHaveTextContent('Copied');

    execCommand.mockReturnValue(false);
    await userEvent.click(screen.getByRole('button', { name: 'Copy' }));
    expect(screen.getByRole('status')).toHaveTextContent(/Copying is blocked here: the text is selected, press (Ctrl\+C|⌘C)/);
    expect(window.getSelection()?.toString()).toContain('process.env.KEY');
    expect(screen.getByRole('button', { name: 'Copy' })).toHaveFocus();
  });
});

describe('a detail in the dock', () => {
  it('[X2][U3] sits above the options; number keys and Ctrl+Enter still work, even with the block focused for scrolling', async () => {
    const user = userEvent.setup();
    const { client, render: show } = setup([approval(DIFF)]);
    show(<QuestionDock sessionKey="s1" composer={composer} />);
    const dock = screen.getByRole('region', { name: 'Questions' });
    const block = within(dock).getByRole('group', { name: 'Detail' });
    expect(block.textContent).toBe(DIFF);
    expect(block.compareDocumentPosition(within(dock).getByRole('radio', { name: 'Allow' })) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    await user.keyboard('1');
    expect(within(dock).getByRole('radio', { name: 'Allow' })).toBeChecked();
    block.focus();
    await user.keyboard('2');
    expect(within(dock).getByRole('radio', { name: 'Deny' })).toBeChecked();
    block.focus();
    await user.keyboard('{Control>}{Enter}{/Control}');
    await waitFor(() =>
      expect(client.request).toHaveBeenCalledWith('question.resolve', expect.objectContaining({ id: 'q-approve', answers: { approve: ['Deny'] } })),
    );
  });

  it('[X2][W3] a detail that holds something like a credential is shown whole, and answering an option sends without the warning', async () => {
    const user = userEvent.setup();
    const { client, render: show } = setup([approval(DIFF)]);
    show(<QuestionDock sessionKey="s1" composer={composer} />);
    expect(screen.getByRole('group', { name: 'Detail' })).toHaveTextContent('sk-live-0123456789abcdef0123');
    await user.click(screen.getByRole('radio', { name: 'Allow' }));
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() =>
      expect(client.request).toHaveBeenCalledWith('question.resolve', expect.objectContaining({ id: 'q-approve', answers: { approve: ['Allow'] } })),
    );
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it('[X2] axe finds nothing serious in a dock with a detail', async () => {
    setup([approval(DIFF)]).render(<QuestionDock sessionKey="s1" composer={composer} />);
    const { violations } = await axe.run(screen.getByRole('region', { name: 'Questions' }), { rules: { 'color-contrast': { enabled: false } } });
    expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
  });
});
