// @vitest-environment jsdom
import { focusManager, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { GatewayClient } from '../../../../client/client.ts';
import { AskdockError, type ChatMessage } from '../../../../protocol/index.ts';
import { GatewayProvider } from '../../../lib/gateway.tsx';
import { createQueryClient } from '../../../lib/query-client.ts';
import { Transcript } from './transcript.tsx';
import '../../../../testing/resize-observer.ts';
import { fakeTranscriptLayout, transcriptMessage } from '../../../../testing/transcript-layout.ts';

fakeTranscriptLayout();
const message = transcriptMessage;
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => message(from + i));

type Page = { messages: ChatMessage[]; hasMore: boolean } | AskdockError;

/** A gateway client whose chat.history answers from `pages`: the first without `before`, the next for each older request. */
function setup(pages: Page[], extraItems = [] as { key: string; atMs: number; node: React.ReactNode }[], demoAgent?: boolean) {
  const queue = [...pages];
  const request = vi.fn(async (method: string) => {
    if (method !== 'chat.history') throw new Error(`unexpected ${method}`);
    const page = queue.shift() ?? { messages: [], hasMore: false };
    if (page instanceof AskdockError) throw page;
    return page;
  });
  const client = { request, on: () => () => {}, onHello: () => () => {}, onState: () => () => {}, state: { status: 'connected' } };
  render(
    <QueryClientProvider client={createQueryClient()}>
      <GatewayProvider client={client as unknown as GatewayClient}>
        <Transcript sessionKey="s1" extraItems={extraItems} demoAgent={demoAgent} />
      </GatewayProvider>
    </QueryClientProvider>,
  );
  return { request, log: screen.getByRole('log', { name: 'Conversation' }) };
}

describe('Transcript', () => {
  it('[U12][U7] lists a short conversation whole, oldest first, with extra items placed among the messages by time', async () => {
    const { log } = setup([{ messages: range(1, 3), hasMore: false }], [{ key: 'q1', atMs: 2500, node: <p>Question summary</p> }]);
    await waitFor(() => expect(within(log).getAllByRole('article')).toHaveLength(3));
    const text = log.textContent ?? '';
    const order = ['Message number 1.', 'Message number 2.', 'Question summary', 'Message number 3.'].map((t) => text.indexOf(t));
    expect(order.every((at, i) => at >= 0 && (i === 0 || at > order[i - 1]))).toBe(true);
  });

  it('[C3] "Load earlier" asks for the messages before the oldest one shown, and goes once there are no more', async () => {
    const user = userEvent.setup();
    const { request, log } = setup([
      { messages: range(51, 100), hasMore: true },
      { messages: range(1, 50), hasMore: false },
    ]);
    await user.click(await within(log).findByRole('button', { name: 'Load earlier' }));
    expect(request).toHaveBeenLastCalledWith('chat.history', { sessionKey: 's1', limit: 50, before: 'm51' });
    await waitFor(() => expect(within(log).getAllByRole('article')).toHaveLength(100));
    expect(within(log).queryByRole('button', { name: 'Load earlier' })).toBeNull();
  });

  it('[U7] a long conversation keeps only a window of rows in the page', async () => {
    // Where the window sits (at the latest message) needs real scrolling: e2e/transcript.spec.ts checks that in Chromium.
    const { log } = setup([{ messages: range(1, 400), hasMore: false }]);
    await waitFor(() => expect(within(log).getAllByRole('article').length).toBeGreaterThan(0));
    expect(within(log).getAllByRole('article').length).toBeLessThan(150);
  });

  it('[U18][A6] an empty session of the demo agent says what to type to it; another agent\'s empty session does not', async () => {
    const demo = setup([{ messages: [], hasMore: false }], [], true);
    await within(demo.log).findByText('No messages yet');
    expect(demo.log.textContent).toContain('With the demo agent, deploy asks a two-question prompt');
    cleanup();
    const other = setup([{ messages: [], hasMore: false }]);
    await within(other.log).findByText('No messages yet');
    expect(other.log.textContent).not.toMatch(/demo agent|deploy/);
    expect(other.log.textContent).toContain('Write to the agent below');
  });

  it('[A5][A3] a sign-in with operator.questions alone is told it cannot read the conversation, naming the scope, at once and even in a hidden tab', async () => {
    // A retry waits for the tab to be shown again: a hidden tab would keep saying "Loading the conversation…".
    focusManager.setFocused(false);
    try {
      const refusal = new AskdockError('FORBIDDEN', 'chat.history needs scope operator.admin or operator.read; identity "bo" has operator.questions', {
        details: { method: 'chat.history', needed: ['operator.admin', 'operator.read'] },
      });
      const { request, log } = setup([refusal, refusal]);
      await within(log).findByText(/may answer this session's questions but not read its conversation: that needs the operator\.read scope/);
      expect(log.textContent).not.toContain('Loading the conversation');
      expect(within(log).queryByRole('button', { name: 'Try again' })).toBeNull();
      expect(request).toHaveBeenCalledTimes(1);
    } finally {
      focusManager.setFocused(undefined);
    }
  });
});
