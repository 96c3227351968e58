// @vitest-environment jsdom
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ReceiptPopover } from './receipt-popover.tsx';

const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
/** A receipt as the gateway makes it (the view never checks the signature, so any third part will do). */
const RECEIPT = `${part({ alg: 'EdDSA', kid: 'c331e6c5' })}.${part({ v: 1, questionId: 'q-7', status: 'allowed', decidedBy: 'person', resolvedBy: { identity: 'ana', surface: 'dock', atMs: 5 }, entryIndex: 12 })}.c2lnbmF0dXJl`;

const clipboard = Object.getOwnPropertyDescriptor(navigator, 'clipboard');
afterEach(() => {
  cleanup();
  if (clipboard) Object.defineProperty(navigator, 'clipboard', clipboard);
  else delete (navigator as { clipboard?: unknown }).clipboard;
});

const shown = () => screen.findByRole('button', { name: 'Receipt' });

describe('[L4] a decided question\'s receipt', () => {
  it('[L4][U12] "Receipt" opens by keyboard: what it records, the JWS whole, Copy puts it on the clipboard and says "Copied"; Escape gives focus back', async () => {
    const user = userEvent.setup();
    const writeText = vi.fn(async () => {});
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    render(<ReceiptPopover receipt={RECEIPT} />);
    const trigger = await shown();
    trigger.focus();
    await user.keyboard('{Enter}');
    const dialog = await screen.findByRole('dialog', { name: 'Receipt' });
    expect(dialog).toHaveTextContent('Allowed by ana · log entry 12 · key c331e6c5');
    expect(within(dialog).getByRole('textbox', { name: 'Receipt (compact JWS)' })).toHaveValue(RECEIPT);
    const copy = within(dialog).getByRole('button', { name: 'Copy' });
    await waitFor(() => expect(copy).toHaveFocus());
    await user.keyboard('{Enter}');
    expect(writeText).toHaveBeenCalledWith(RECEIPT);
    expect(await within(dialog).findByRole('status')).toHaveTextContent('Copied');
    const { violations } = await axe.run(document.body, { rules: { 'color-contrast': { enabled: false } } });
    expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(trigger).toHaveFocus();
  });

  it('[L4] where the clipboard refuses, the receipt is selected for Ctrl+C and the popover says so', async () => {
    const user = userEvent.setup();
    Object.defineProperty(navigator, 'clipboard', { value: { writeText: vi.fn(async () => Promise.reject(new Error('denied'))) }, configurable: true });
    document.execCommand = vi.fn(() => false);
    render(<ReceiptPopover receipt={RECEIPT} />);
    await user.click(await shown());
    const dialog = await screen.findByRole('dialog', { name: 'Receipt' });
    await user.click(within(dialog).getByRole('button', { name: 'Copy' }));
    expect(await within(dialog).findByRole('status')).toHaveTextContent('Selected: press Ctrl+C to copy');
    const field = within(dialog).getByRole<HTMLTextAreaElement>('textbox', { name: 'Receipt (compact JWS)' });
    expect([field.selectionStart, field.selectionEnd]).toEqual([0, RECEIPT.length]);
  });
});
