// @vitest-environment jsdom
import { QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { GatewayClient } from '../../../../client/client.ts';
import type { ChatMessage } from '../../../../protocol/index.ts';
import { GatewayProvider } from '../../../lib/gateway.tsx';
import { createQueryClient } from '../../../lib/query-client.ts';
import { Transcript } from './transcript.tsx';
import '../../../../testing/resize-observer.ts';
import { fakeTranscriptLayout, transcriptMessage } from '../../../../testing/transcript-layout.ts';

// Each row draws one message: counting the message's renders counts the rows drawn.
const drawn = vi.hoisted(() => ({ rows: [] as string[] }));
vi.mock('./message-item.tsx', () => ({
  MessageItem: ({ message }: { message: ChatMessage }) => {
    drawn.rows.push(message.id);
    return <article>{message.text}</article>;
  },
}));

fakeTranscriptLayout();

describe('Transcript rows', () => {
  it('[U1][C5] the log re-rendering for a scroll (as when the dock opens under it) draws none of its rows again', async () => {
    const history = { messages: Array.from({ length: 12 }, (_, i) => transcriptMessage(i + 1)), hasMore: false };
    const client = { request: async () => history, on: () => () => {}, onHello: () => () => {}, onState: () => () => {}, state: { status: 'connected' } };
    render(
      <QueryClientProvider client={createQueryClient()}>
        <GatewayProvider client={client as unknown as GatewayClient}>
          <Transcript sessionKey="s1" />
        </GatewayProvider>
      </QueryClientProvider>,
    );
    const log = screen.getByRole('log', { name: 'Conversation' });
    await waitFor(() => expect(within(log).getAllByRole('article')).toHaveLength(12));
    await waitFor(() => expect(log).not.toHaveAttribute('aria-busy'));
    drawn.rows.length = 0;

    // The virtualizer marks the log busy while it scrolls: that is a render of the log, with the same rows.
    log.scrollTop = 40;
    fireEvent.scroll(log);
    await waitFor(() => expect(log).toHaveAttribute('aria-busy', 'true'));
    await waitFor(() => expect(log).not.toHaveAttribute('aria-busy'));
    expect(within(log).getAllByRole('article')).toHaveLength(12);
    expect(drawn.rows).toEqual([]);
  });
});
