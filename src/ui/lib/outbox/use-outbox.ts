import { createContext, createElement, useContext, useEffect, useRef, useSyncExternalStore, type ReactNode } from 'react';
import type { ChatMessage } from '../../../protocol/index.ts';
import { useGateway } from '../gateway.tsx';
import type { OutboxRow } from './machine.ts';
import { createOutbox, OUTBOX_CHANNEL, type ChannelLike, type Outbox, type OutboxClient } from './outbox.ts';
import { createOutboxStorage } from './storage.ts';

const OutboxContext = createContext<Outbox | null>(null);

const outboxes = new WeakMap<OutboxClient, Outbox>();

/**
 * The tab's one outbox for a client: IndexedDB storage and the `askdock-outbox` BroadcastChannel. Made once and
 * kept for the page's life, so React StrictMode's double mounts never start two senders.
 */
export function browserOutbox(client: OutboxClient): Outbox {
  let outbox = outboxes.get(client);
  if (!outbox) {
    const Channel = (globalThis as { BroadcastChannel?: new (name: string) => ChannelLike }).BroadcastChannel;
    outbox = createOutbox({ client, storage: createOutboxStorage(), channel: Channel ? new Channel(OUTBOX_CHANNEL) : null });
    outboxes.set(client, outbox);
  }
  return outbox;
}

/** Provides an outbox: the given one (tests, stories) or the tab's browser outbox for the gateway client. */
export function OutboxProvider({ outbox, children }: { outbox?: Outbox; children?: ReactNode }) {
  return outbox
    ? createElement(OutboxContext.Provider, { value: outbox }, children)
    : createElement(BrowserOutboxProvider, null, children);
}

function BrowserOutboxProvider({ children }: { children?: ReactNode }) {
  const client = useGateway();
  return createElement(OutboxContext.Provider, { value: browserOutbox(client) }, children);
}

export function useOutbox(): Outbox {
  const outbox = useContext(OutboxContext);
  if (!outbox) throw new Error('useOutbox needs an <OutboxProvider> (inside the <GatewayProvider>)');
  return outbox;
}

/** A session's outbox rows, oldest first; re-renders only when they change. */
export function useOutboxRows(sessionKey?: string): readonly OutboxRow[] {
  const outbox = useOutbox();
  return useSyncExternalStore(outbox.subscribe, () => outbox.rows(sessionKey));
}

/** The outbox row answering one question, if any (for its summary's delivery status). */
export function useOutboxRowForQuestion(questionId: string): OutboxRow | undefined {
  const outbox = useOutbox();
  return useSyncExternalStore(outbox.subscribe, () => outbox.rowForQuestion(questionId));
}

/** Runs for every row discarded in this tab or another one: the dock reopens that question's draft. */
export function useOutboxDiscarded(listener: (row: OutboxRow) => void): void {
  const outbox = useOutbox();
  const ref = useRef(listener);
  ref.current = listener;
  useEffect(() => outbox.onDiscarded((row) => ref.current(row)), [outbox]);
}

/** Feeds loaded history to the outbox, so answers saved while this tab was away show as Sent. */
export function useOutboxHistoryConfirm(messages: readonly ChatMessage[] | undefined): void {
  const outbox = useOutbox();
  useEffect(() => {
    if (messages?.length) void outbox.confirmFromHistory(messages);
  }, [outbox, messages]);
}
