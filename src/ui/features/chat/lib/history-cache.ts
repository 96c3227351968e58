import type { InfiniteData } from '@tanstack/react-query';
import type { ChatMessage } from '../../../../protocol/index.ts';

/** A message as the transcript shows it: `streaming` while assistant deltas are still arriving. */
export type TranscriptMessage = ChatMessage & { streaming?: boolean };

export type HistoryPage = { messages: TranscriptMessage[]; hasMore: boolean };

/** Pages newest first (page 0 is the latest chunk), each listed oldest first, as chat.history answers (C3). */
export type HistoryData = InfiniteData<HistoryPage, string | undefined>;

const byTime = (a: TranscriptMessage, b: TranscriptMessage) => a.createdAtMs - b.createdAtMs || a.seq - b.seq;

export function hasMessage(data: HistoryData | undefined, id: string): boolean {
  return !!data?.pages.some((page) => page.messages.some((m) => m.id === id));
}

/**
 * Merges one live `chat` event by message id: a delta replaces the text so far, `final` ends the stream.
 * A message not seen yet joins the newest page. Without cached history there is nothing to merge into.
 */
export function upsertMessage(data: HistoryData | undefined, message: ChatMessage, streaming: boolean): HistoryData | undefined {
  if (!data || data.pages.length === 0) return data;
  const next: TranscriptMessage = { ...message, streaming: streaming || undefined };
  if (hasMessage(data, message.id)) {
    return {
      ...data,
      pages: data.pages.map((page) =>
        page.messages.some((m) => m.id === message.id)
          ? { ...page, messages: page.messages.map((m) => (m.id === message.id ? next : m)) }
          : page,
      ),
    };
  }
  const [newest, ...older] = data.pages;
  return { ...data, pages: [{ ...newest, messages: [...newest.messages, next].sort(byTime) }, ...older] };
}

/** A run that ended without a final message (aborted, failed) leaves no reply streaming. */
export function endStreams(data: HistoryData | undefined, runId: string): HistoryData | undefined {
  if (!data?.pages.some((page) => page.messages.some((m) => m.streaming && m.runId === runId))) return data;
  return {
    ...data,
    pages: data.pages.map((page) => ({
      ...page,
      messages: page.messages.map((m) => (m.streaming && m.runId === runId ? { ...m, streaming: undefined } : m)),
    })),
  };
}

// Cached per history object: the transcript and the question summaries both read it, and it is redone on every message.
const flattened = new WeakMap<HistoryData, TranscriptMessage[]>();

/** Every cached message oldest first, once each (pages may overlap after new messages shift them). */
export function flattenHistory(data: HistoryData | undefined): TranscriptMessage[] {
  if (!data) return [];
  const cached = flattened.get(data);
  if (cached) return cached;
  const seen = new Map<string, TranscriptMessage>();
  for (let i = data.pages.length - 1; i >= 0; i--) {
    for (const message of data.pages[i].messages) seen.set(message.id, message);
  }
  const list = [...seen.values()];
  // Pages come oldest first and each is in order, so the sort is only needed when they interleave.
  if (list.some((m, i) => i > 0 && byTime(list[i - 1], m) > 0)) list.sort(byTime);
  flattened.set(data, list);
  return list;
}
