import { createContext, createElement, useContext, useEffect, useRef, useSyncExternalStore, type ReactNode } from 'react';
import type { ChatMessage } from '../../../protocol/index.ts';
import { useGateway } from '../gateway.tsx';
import type { OutboxRow } from './machine.ts';
import { retryingImport } from '../retrying-import.ts';
import { chatListenedEarly, lazyOutbox } from './lazy-outbox.ts';
import type { Outbox, OutboxClient } from './outbox.ts';

const OutboxContext = createContext<Outbox | null>(null);

const outboxes = new WeakMap<OutboxClient, Outbox>();
const outboxChunk = retryingImport(() => import('./browser-outbox.ts'));

/**
 * The tab's one outbox for a client: IndexedDB storage and the `askdock-outbox` BroadcastChannel, its code loaded
 * as the app starts (a chunk of its own). Made once and kept for the page's life, so React StrictMode's double mounts
 * never start two senders.
 */
export function browserOutbox(client: OutboxClient): Outbox {
  let outbox = outboxes.get(client);
  if (!outbox) {
    const early = chatListenedEarly(client);
    outbox = lazyOutbox((tabId) => outboxChunk.load().then((m) => m.createBrowserOutbox(early, tabId)));
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
