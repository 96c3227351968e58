import type { ReactNode } from 'react';
import type { TranscriptMessage } from './history-cache.ts';

/**
 * Something another feature places in the transcript by time (e.g. a question's summary). `shownBy` tells when the
 * messages themselves already show it (a message still in the outbox that the history now holds): it is left out in
 * the same render, so nothing shows twice while the feature catches up.
 */
export type TranscriptExtraItem = { key: string; atMs: number; node: ReactNode; shownBy?: (messages: readonly TranscriptMessage[]) => boolean };

export type TranscriptEntry =
  | { kind: 'message'; key: string; message: TranscriptMessage }
  | { kind: 'extra'; key: string; item: TranscriptExtraItem };

/** Merges extra items into the messages by time; on a tie the message comes first, as it was said before it was asked about. */
export function interleave(messages: readonly TranscriptMessage[], extras: readonly TranscriptExtraItem[]): TranscriptEntry[] {
  const sortedExtras = extras.filter((x) => !x.shownBy?.(messages)).sort((a, b) => a.atMs - b.atMs);
  const out: TranscriptEntry[] = [];
  let e = 0;
  for (const message of messages) {
    while (e < sortedExtras.length && sortedExtras[e].atMs < message.createdAtMs) {
      out.push({ kind: 'extra', key: `x:${sortedExtras[e].key}`, item: sortedExtras[e] });
      e++;
    }
    out.push({ kind: 'message', key: `m:${message.id}`, message });
  }
  for (; e < sortedExtras.length; e++) out.push({ kind: 'extra', key: `x:${sortedExtras[e].key}`, item: sortedExtras[e] });
  return out;
}
