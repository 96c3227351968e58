// @vitest-environment jsdom
import type { ReactNode } from 'react';
import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { describe, expect, it, vi } from 'vitest';
import { QuestionDock } from '../index.tsx';
import { dockTestHooks } from '../../../../testing/question-dock.tsx';
import { composer, deployRecord, setup } from '../../../../testing/ui-questions.tsx';

// U12/U13: names, announcements, narrow screens and the title.
dockTestHooks();

describe('QuestionDock', () => {
  it('[U12] names options by label, describes them, announces politely, and axe finds no serious violations', async () => {
    setup([deployRecord()]).render(<QuestionDock sessionKey="s1" composer={composer} />);
    expect(screen.getByRole('radiogroup', { name: 'Where should I deploy?' })).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'Staging (Recommended)' })).toHaveAccessibleDescription('Safe to break');
    expect(screen.getByRole('status')).toHaveAttribute('aria-live', 'polite');
    const results = await axe.run(document.body, { rules: { 'color-contrast': { enabled: false }, region: { enabled: false } } });
    const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.html).join(' | ')}`)).toEqual([]);
  });

  it('[U12] the live region names a new question here by its wording, and one in another session or the Inbox as waiting there', () => {
    const { client, render } = setup([]);
    render(<QuestionDock sessionKey="s1" composer={composer} />);
    const status = screen.getByRole('status');
    act(() => client.emit('question.requested', { question: deployRecord() }));
    expect(status).toHaveTextContent(/^New question: Environment — Where should I deploy\?/);
    expect(status).not.toHaveTextContent('another session');
    act(() => client.emit('question.requested', { question: deployRecord({ id: 'q-other', sessionKey: 's2' }) }));
    expect(status).toHaveTextContent(/Environment — Where should I deploy\?.*, in another session$/);
    act(() => client.emit('question.requested', { question: deployRecord({ id: 'q-inbox', sessionKey: undefined }) }));
    expect(status).toHaveTextContent(/, in the Inbox$/);
  });

  it('[U12] narrow screens show a multi-question prompt as stacked cards with one Submit', async () => {
    const matchMedia = vi.fn((query: string) => ({ matches: true, media: query, addEventListener: () => {}, removeEventListener: () => {} }));
    vi.stubGlobal('matchMedia', matchMedia);
    try {
      const user = userEvent.setup();
      const { client, render } = setup([deployRecord()]);
      render(<QuestionDock sessionKey="s1" composer={composer} />);
      expect(screen.getByRole('group', { name: 'Environment' })).toBeInTheDocument();
      expect(screen.getByRole('group', { name: 'Notify' })).toBeInTheDocument();
      expect(screen.queryByText(/Question 1 of 2/)).toBeNull();
      expect(screen.queryByRole('button', { name: 'Next' })).toBeNull();
      await user.click(screen.getByRole('radio', { name: 'Production' }));
      await user.click(screen.getByRole('button', { name: 'Submit' }));
      expect(within(screen.getByRole('group', { name: 'Notify' })).getByRole('alert')).toBeInTheDocument();
      await user.click(screen.getByRole('checkbox', { name: 'Pager' }));
      await user.click(screen.getByRole('button', { name: 'Submit' }));
      expect(client.request).toHaveBeenCalledWith('question.resolve', expect.objectContaining({ answers: { env: ['Production'], notify: ['Pager'] } }));
      await axe.run(document.body).then((r) => expect(r.violations.filter((v) => v.impact === 'critical')).toEqual([]));
    } finally {
      vi.unstubAllGlobals();
    }
  });

  /** U13: a question arriving while the tab is hidden shows in the title, until the tab is seen again. */
  function expectTitleWhileHidden(page: ReactNode) {
    const { client, render } = setup([]);
    render(page);
    document.title = 'askdock';
    const hidden = vi.spyOn(document, 'hidden', 'get').mockReturnValue(true);
    act(() => client.emit('question.requested', { question: deployRecord() }));
    expect(document.title).toBe('(1) Question: Environment — askdock');
    hidden.mockReturnValue(false);
    act(() => document.dispatchEvent(new Event('visibilitychange')));
    expect(document.title).toBe('askdock');
    hidden.mockRestore();
  }

  it('[U13] a question arriving while the tab is hidden shows in the title until the tab is seen again', () => {
    expectTitleWhileHidden(<QuestionDock sessionKey="s1" composer={composer} />);
  });

  it('[U13] the title shows it on a page without a dock too (the Inbox, a question link, the empty start)', () => {
    expectTitleWhileHidden(<p>No sessions yet.</p>);
  });
});
