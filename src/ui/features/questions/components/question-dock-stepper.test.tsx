// @vitest-environment jsdom
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { QuestionDock } from '../index.tsx';
import { useDraftsStore } from '../stores/drafts.ts';
import { dock, dockTestHooks } from '../../../../testing/question-dock.tsx';
import { composer, deployRecord, setup } from '../../../../testing/ui-questions.tsx';

// U2/U3/U12: one question at a time, the stepper and its choice groups.
dockTestHooks();

describe('QuestionDock', () => {
  it('[U2] shows one question at a time with a stepper, Back / Next, and Submit on the last', async () => {
    const user = userEvent.setup();
    const { client } = setup([deployRecord()]);
    setup([deployRecord()], client).render(<QuestionDock sessionKey="s1" composer={composer} />);
    expect(screen.getByText('Question 1 of 2')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Submit' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Back' })).toHaveAttribute('aria-disabled', 'true');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Choose an option');
    expect(screen.getByText('Question 1 of 2')).toBeInTheDocument();
    await user.click(screen.getByRole('radio', { name: 'Staging (Recommended)' }));
    expect(screen.queryByRole('alert')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByText('Question 2 of 2')).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: 'Email' })).toHaveFocus();
    await user.click(screen.getByRole('button', { name: 'Back' }));
    expect(screen.getByRole('radio', { name: 'Staging (Recommended)' })).toBeChecked();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.click(screen.getByRole('checkbox', { name: 'Email' }));
    await user.click(screen.getByRole('checkbox', { name: 'Pager' }));
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(client.request).toHaveBeenCalledWith('question.resolve', {
      id: 'q-deploy',
      answers: { env: ['Staging (Recommended)'], notify: ['Email', 'Pager'] },
      resolutionId: expect.stringMatching(/^ui-/),
      surface: 'control-ui',
    });
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Questions' })).toBeNull());
    expect(screen.getByRole('textbox', { name: 'Message' })).toHaveFocus();
    expect(useDraftsStore.getState().drafts['q-deploy']).toBeUndefined();
  });

  it('[U2][Q5] a question id `constructor` in a record `toString`: Next, Back and Submit work and send its answer', async () => {
    const user = userEvent.setup();
    const [env, notify] = deployRecord().questions;
    const record = deployRecord({ id: 'toString', questions: [{ ...env, id: 'constructor' }, { ...notify, id: 'valueof' }] });
    const { client, render } = setup([record]);
    render(<QuestionDock sessionKey="s1" composer={composer} />);
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Choose an option');
    await user.click(screen.getByRole('radio', { name: 'Production' }));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.click(screen.getByRole('checkbox', { name: 'Slack' }));
    await user.click(screen.getByRole('button', { name: 'Back' }));
    expect(screen.getByRole('radio', { name: 'Production' })).toBeChecked();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByRole('checkbox', { name: 'Slack' })).toBeChecked();
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(client.request).toHaveBeenCalledWith('question.resolve', expect.objectContaining({ id: 'toString', answers: { constructor: ['Production'], valueof: ['Slack'] } }));
  });

  it('[U12] each option of a single choice is one radio: no hidden native radio beside it to measure and keep in step', () => {
    setup([deployRecord()]).render(<QuestionDock sessionKey="s1" composer={composer} />);
    const radios = within(dock()).getAllByRole('radio');
    expect(radios.length).toBeGreaterThan(1);
    expect(radios.every((r) => r.tagName === 'BUTTON')).toBe(true);
    expect(dock().querySelectorAll('input[type="radio"]')).toHaveLength(0);
  });

  it('[U3][U12] arrow keys in a single-choice group select the option they move to; Home/End go to the first/last', async () => {
    const user = userEvent.setup();
    const [env] = deployRecord().questions;
    const three = { ...env, options: [...env.options, { label: 'Canary' }] };
    setup([deployRecord({ questions: [three] })]).render(<QuestionDock sessionKey="s1" composer={composer} />);
    const radio = (name: string) => screen.getByRole('radio', { name });
    act(() => radio('Staging (Recommended)').focus());
    expect(radio('Staging (Recommended)')).not.toBeChecked();
    await user.keyboard('{ArrowDown}');
    await waitFor(() => expect(radio('Production')).toHaveFocus());
    expect(radio('Production')).toBeChecked();
    await user.keyboard('{End}');
    await waitFor(() => expect(radio('Canary')).toHaveFocus());
    expect(radio('Canary')).toBeChecked();
    await user.keyboard('{Home}');
    await waitFor(() => expect(radio('Staging (Recommended)')).toHaveFocus());
    expect(radio('Staging (Recommended)')).toBeChecked();
    await user.keyboard('{ArrowUp}');
    await waitFor(() => expect(radio('Canary')).toHaveFocus());
    expect(radio('Canary')).toBeChecked();
    expect(useDraftsStore.getState().drafts['q-deploy'].items.env).toEqual({ chosen: ['Canary'], other: '' });
  });

  it('[U2][U12] Back is no Tab stop while it does nothing (the first question), and is one on the next', async () => {
    const user = userEvent.setup();
    setup([deployRecord()]).render(<QuestionDock sessionKey="s1" composer={composer} />);
    const tabStops = async () => {
      act(() => within(dock()).getByRole('textbox', { name: 'Other' }).focus());
      const seen: string[] = [];
      for (let i = 0; i < 12; i++) {
        await user.tab();
        const el = document.activeElement as HTMLElement;
        if (!dock().contains(el)) break;
        seen.push(el.textContent ?? '');
      }
      return seen;
    };
    expect((await tabStops()).some((name) => name.startsWith('Back'))).toBe(false);
    await user.click(screen.getByRole('radio', { name: 'Production' }));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect((await tabStops()).some((name) => name.startsWith('Back'))).toBe(true);
  });
});
