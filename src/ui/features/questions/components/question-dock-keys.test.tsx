// @vitest-environment jsdom
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { QuestionDock } from '../index.tsx';
import { ctrlEnter, dockTestHooks } from '../../../../testing/question-dock.tsx';
import { composer, deployRecord, setup } from '../../../../testing/ui-questions.tsx';

// U3/U4: keys, IME and the Other field.
dockTestHooks();

describe('QuestionDock', () => {
  it('[U3] number keys pick options but never steal typed text; Ctrl+Enter continues and submits', async () => {
    const user = userEvent.setup();
    const { client, render } = setup([deployRecord()]);
    render(<QuestionDock sessionKey="s1" composer={composer} />);
    await user.click(screen.getByRole('radio', { name: 'Staging (Recommended)' }));
    await user.keyboard('2');
    expect(screen.getByRole('radio', { name: 'Production' })).toBeChecked();
    expect(screen.getByRole('radio', { name: 'Production' })).toHaveFocus();
    await user.click(screen.getByRole('textbox', { name: 'Other' }));
    await user.keyboard('v1{Enter}2');
    expect(screen.getByRole('textbox', { name: 'Other' })).toHaveValue('v1\n2');
    expect(screen.getByRole('radio', { name: 'Production' })).not.toBeChecked();
    expect(screen.getByRole('radio', { name: 'Staging (Recommended)' })).not.toBeChecked();
    await user.keyboard(ctrlEnter);
    expect(screen.getByText('Question 2 of 2')).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: 'Email' })).toHaveFocus();
    await user.keyboard('13');
    expect(screen.getByRole('checkbox', { name: 'Email' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Pager' })).toBeChecked();
    await user.keyboard(ctrlEnter);
    expect(client.request).toHaveBeenCalledWith(
      'question.resolve',
      expect.objectContaining({ answers: { env: ['v1\n2'], notify: ['Email', 'Pager'] } }),
    );
  });

  it('[U3] Cmd+Enter (metaKey, as on macOS) continues and submits like Ctrl+Enter, from a choice and from Other', async () => {
    const user = userEvent.setup();
    const { client, render } = setup([deployRecord()]);
    render(<QuestionDock sessionKey="s1" composer={composer} />);
    await user.click(screen.getByRole('radio', { name: 'Production' }));
    await user.keyboard('{Meta>}{Enter}{/Meta}');
    expect(screen.getByText('Question 2 of 2')).toBeInTheDocument();
    await user.click(screen.getByRole('textbox', { name: 'Other' }));
    await user.keyboard('ops{Meta>}{Enter}{/Meta}');
    expect(client.request).toHaveBeenCalledWith('question.resolve', expect.objectContaining({ answers: { env: ['Production'], notify: ['ops'] } }));
  });

  it('[U3] IME composition is never taken as a key, and action buttons keep their own keys', async () => {
    const user = userEvent.setup();
    const { client, render } = setup([deployRecord({ questions: [deployRecord().questions[0]] })]);
    render(<QuestionDock sessionKey="s1" composer={composer} />);
    const other = screen.getByRole('textbox', { name: 'Other' });
    await user.type(other, 'staging');
    // A composing Ctrl+Enter (keyCode 229) must not submit.
    other.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', ctrlKey: true, keyCode: 229, isComposing: true, bubbles: true }));
    expect(client.request).not.toHaveBeenCalled();
    screen.getByRole('button', { name: 'Skip' }).focus();
    await user.keyboard(ctrlEnter);
    expect(client.request).not.toHaveBeenCalled();
    await user.keyboard('1');
    expect(screen.getByRole('radio', { name: 'Staging (Recommended)' })).toBeChecked();
    expect(other).toHaveValue('');
  });

  it('[U4] typing Other deselects the option on single-select; the last action wins; multi-select sends Other beside the choices', async () => {
    const user = userEvent.setup();
    const { client, render } = setup([deployRecord()]);
    render(<QuestionDock sessionKey="s1" composer={composer} />);
    await user.click(screen.getByRole('radio', { name: 'Production' }));
    await user.type(screen.getByRole('textbox', { name: 'Other' }), 'canary');
    expect(screen.getByRole('radio', { name: 'Production' })).not.toBeChecked();
    await user.click(screen.getByRole('radio', { name: 'Production' }));
    expect(screen.getByRole('textbox', { name: 'Other' })).toHaveValue('');
    await user.type(screen.getByRole('textbox', { name: 'Other' }), '  ');
    expect(screen.getByRole('radio', { name: 'Production' })).toBeChecked();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.click(screen.getByRole('checkbox', { name: 'Slack' }));
    await user.type(screen.getByRole('textbox', { name: 'Other' }), ' the on-call channel ');
    expect(screen.getByRole('checkbox', { name: 'Slack' })).toBeChecked();
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(client.request).toHaveBeenCalledWith(
      'question.resolve',
      expect.objectContaining({ answers: { env: ['Production'], notify: ['Slack', 'the on-call channel'] } }),
    );
  });
});
