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

function renderLog(count: number) {
  const history = { messages: Array.from({ length: count }, (_, i) => transcriptMessage(i + 1)), hasMore: false };
  const client = { request: async () => history, on: () => () => {}, onHello: () => () => {}, onState: () => () => {}, state: { status: 'connected' } };
  render(
    <QueryClientProvider client={createQueryClient()}>
      <GatewayProvider client={client as unknown as GatewayClient}>
        <Transcript sessionKey="s1" />
      </GatewayProvider>
    </QueryClientProvider>,
  );
  return screen.getByRole('log', { name: 'Conversation' });
}

describe('Transcript rows', () => {
  it('[U1][C5] with every row in the page, a scroll re-renders the log after its event, not inside it (as when the dock opens in a frame)', async () => {
    const log = renderLog(12);
    await waitFor(() => expect(within(log).getAllByRole('article')).toHaveLength(12));
    await waitFor(() => expect(log).not.toHaveAttribute('aria-busy'));

    // A plain event, outside React's test batching: what a render forced inside the callback would do shows at once.
    log.scrollTop = 40;
    log.dispatchEvent(new Event('scroll'));
    expect(log).not.toHaveAttribute('aria-busy');
    await waitFor(() => expect(log).toHaveAttribute('aria-busy', 'true'));
    expect(within(log).getAllByRole('article')).toHaveLength(12);
  });

  it('[U1][C5] past the rows kept in the page, a scroll draws the rows it brings into view inside its event', async () => {
    const log = renderLog(200);
    await waitFor(() => expect(log.querySelectorAll('.transcript-row').length).toBeGreaterThan(0));
    await waitFor(() => expect(log).not.toHaveAttribute('aria-busy'));

    log.scrollTop = 40;
    log.dispatchEvent(new Event('scroll'));
    expect(log).toHaveAttribute('aria-busy', 'true');
  });

  it('[U1][C5] the log re-rendering for a scroll (as when the dock opens under it) draws none of its rows again', async () => {
    const log = renderLog(12);
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
