// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import axe from 'axe-core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AskdockError } from '../../../protocol/index.ts';
import type { OutboxRow, OutboxState } from '../../lib/outbox/machine.ts';
import { createOutbox, type Outbox } from '../../lib/outbox/outbox.ts';
import { FakeClient } from '../../../testing/outbox-fakes.ts';
import { createMemoryStorage } from '../../lib/outbox/storage.ts';
import { OutboxProvider } from '../../lib/outbox/use-outbox.ts';
import { DeliveryStatus } from './delivery-status.tsx';
import { DeliveryStatusView } from './delivery-status-view.tsx';

const outboxes: Outbox[] = [];
afterEach(() => {
  cleanup();
  for (const o of outboxes.splice(0)) o.dispose();
});

function row(state: OutboxState, extra: Partial<OutboxRow> = {}): OutboxRow {
  return {
    id: 'r1',
    idempotencyKey: 'outbox-key-0001',
    sessionKey: 's1',
    questionId: 'q1',
    text: '> Lunch\nSushi',
    state,
    createdAtMs: 0,
    updatedAtMs: 0,
    attempts: 1,
    ...extra,
  };
}

function view(r: OutboxRow) {
  const handlers = { onRetry: vi.fn(), onDiscard: vi.fn(), onEdit: vi.fn<(text: string) => Promise<void>>().mockResolvedValue() };
  render(<DeliveryStatusView row={r} {...handlers} />);
  return { ...handlers, user: userEvent.setup() };
}

const button = (name: string) => screen.queryByRole('button', { name });

describe('DeliveryStatusView', () => {
  it.each([
    ['queued', { retry: false, discard: true, edit: true }],
    ['sending', { retry: false, discard: false, edit: false }],
    ['unconfirmed', { retry: true, discard: true, edit: false }],
    ['sent', { retry: false, discard: false, edit: false }],
  ] as const)('[U9][U12] %s offers the right buttons and no status of its own (the card has one)', (state, buttons) => {
    view(row(state));
    expect(screen.queryByRole('status')).toBeNull();
    expect(!!button('Retry answer')).toBe(buttons.retry);
    expect(!!button('Discard')).toBe(buttons.discard);
    expect(!!button('Edit')).toBe(buttons.edit);
  });

  it('[U9] a refusal a resend could change (a bad request) offers Retry answer and Discard', () => {
    view(row('failed', { error: { code: 'INVALID_REQUEST', message: 'bad' } }));
    expect(button('Retry answer')).toBeInTheDocument();
    expect(button('Discard')).toBeInTheDocument();
  });

  it.each(['QUESTION_ALREADY_TERMINAL', 'QUESTION_NOT_FOUND', 'SESSION_NOT_FOUND'])(
    '[U9] a final refusal (%s) offers no Retry answer and no Edit, only Discard',
    (code) => {
      view(row('failed', { error: { code, message: 'Not delivered: it was already answered elsewhere.' } }));
      expect(button('Retry answer')).toBeNull();
      expect(button('Edit')).toBeNull();
      expect(button('Discard')).toBeInTheDocument();
    },
  );

  it('[U9] Retry answer retries and Discard discards, each calling only its own handler', async () => {
    const { onRetry, onDiscard, user } = view(row('unconfirmed'));
    await user.click(button('Retry answer')!);
    expect(onRetry).toHaveBeenCalledOnce();
    expect(onDiscard).not.toHaveBeenCalled();
    await user.click(button('Discard')!);
    expect(onDiscard).toHaveBeenCalledOnce();
    expect(onRetry).toHaveBeenCalledOnce();
  });

  it('[U9] a queued answer is edited in the "Edit answer" box and saved', async () => {
    const { onEdit, user } = view(row('queued'));
    await user.click(button('Edit')!);
    const box = screen.getByRole('textbox', { name: 'Edit answer' });
    expect(box).toHaveValue('> Lunch\nSushi');
    expect(box).toHaveFocus();
    await user.type(box, ' with miso');
    await user.click(button('Save')!);
    expect(onEdit).toHaveBeenCalledExactlyOnceWith('> Lunch\nSushi with miso');
    await waitFor(() => expect(screen.queryByRole('textbox', { name: 'Edit answer' })).not.toBeInTheDocument());
  });

  it('[U3][U9] Ctrl+Enter saves the edit; Enter adds a line; Save is off for blank text', async () => {
    const { onEdit, user } = view(row('queued'));
    await user.click(button('Edit')!);
    const box = screen.getByRole('textbox', { name: 'Edit answer' });
    await user.clear(box);
    expect(button('Save')).toBeDisabled();
    await user.type(box, 'one{Enter}two{Control>}{Enter}{/Control}');
    expect(onEdit).toHaveBeenCalledExactlyOnceWith('one\ntwo');
  });

  it('[U12] axe finds no serious violations', async () => {
    view(row('failed', { error: { code: 'INVALID_REQUEST', message: 'bad' } }));
    await userEvent.setup().click(button('Edit')!);
    const results = await axe.run(document.body, { rules: { 'color-contrast': { enabled: false }, region: { enabled: false } } });
    expect(results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
  });
});

describe('DeliveryStatus (connected to the outbox)', () => {
  function setup(client: FakeClient) {
    const outbox = createOutbox({ client, storage: createMemoryStorage(), onError: () => {} });
    outboxes.push(outbox);
    const ui = render(
      <OutboxProvider outbox={outbox}>
        <section aria-label="Summary">
          <DeliveryStatus questionId="q1" />
        </section>
      </OutboxProvider>,
    );
    return { outbox, ui, user: userEvent.setup() };
  }
  const summary = () => within(screen.getByRole('region', { name: 'Summary' }));

  it('[U9] shows nothing until the question has an outbox row, and nothing once it is sent', async () => {
    const client = new FakeClient('offline');
    const { outbox } = setup(client);
    expect(summary().queryByRole('button')).not.toBeInTheDocument();
    await outbox.enqueue({ sessionKey: 's1', questionId: 'q1', text: '> Lunch\nSushi' });
    expect(await summary().findByRole('button', { name: 'Discard' })).toBeInTheDocument();
    client.reconnect();
    await waitFor(() => expect(outbox.rowForQuestion('q1')?.state).toBe('sent'));
    await waitFor(() => expect(summary().queryByRole('button')).not.toBeInTheDocument());
  });

  it('[U9] Retry answer re-sends the same row after a refusal a resend can change', async () => {
    const client = new FakeClient();
    client.failNext.push(new AskdockError('INVALID_REQUEST', 'try again'));
    const { outbox, user } = setup(client);
    const r = await outbox.enqueue({ sessionKey: 's1', questionId: 'q1', text: '> Lunch\nSushi' });
    await user.click(await summary().findByRole('button', { name: 'Retry answer' }));
    await waitFor(() => expect(outbox.rowForQuestion('q1')?.state).toBe('sent'));
    expect(client.sends.map((c) => c.params.idempotencyKey)).toEqual([r.idempotencyKey, r.idempotencyKey]);
  });

  it('[U9] Discard removes the row and hands it to onDiscarded to reopen the draft', async () => {
    const { outbox, user } = setup(new FakeClient('offline'));
    const reopened = vi.fn();
    outbox.onDiscarded(reopened);
    await outbox.enqueue({ sessionKey: 's1', questionId: 'q1', text: '> Lunch\nSushi', answers: { lunch: ['Sushi'] } });
    await user.click(await summary().findByRole('button', { name: 'Discard' }));
    await waitFor(() => expect(summary().queryByRole('button')).not.toBeInTheDocument());
    expect(reopened).toHaveBeenCalledWith(expect.objectContaining({ questionId: 'q1', answers: { lunch: ['Sushi'] } }));
  });

  it('[U9] editing a queued answer while offline sends the edited text', async () => {
    const client = new FakeClient('offline');
    const { outbox, user } = setup(client);
    await outbox.enqueue({ sessionKey: 's1', questionId: 'q1', text: '> Lunch\nSushi', answers: { lunch: ['Sushi'] } });
    await user.click(await summary().findByRole('button', { name: 'Edit' }));
    const box = summary().getByRole('textbox', { name: 'Edit answer' });
    await user.clear(box);
    await user.type(box, '> Lunch\nSalad');
    await user.click(summary().getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(outbox.rowForQuestion('q1')?.text).toBe('> Lunch\nSalad'));
    client.reconnect();
    await waitFor(() => expect(outbox.rowForQuestion('q1')?.state).toBe('sent'));
    expect(client.sends[0].params).toMatchObject({ message: '> Lunch\nSalad', replyTo: { questionId: 'q1' } });
  });
});
