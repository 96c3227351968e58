import { newId } from '../../../lib/ids.ts';
import { Listeners } from '../../../lib/listeners.ts';
import type { OutboxRow } from './machine.ts';
import type { Outbox, OutboxClient } from './outbox.ts';

const NONE: readonly OutboxRow[] = Object.freeze([]);

/**
 * An outbox whose code arrives after the first screen (U9-U11): until `load` gives the real one it has no rows, as a
 * real outbox has none until its storage is read; every action waits for it, and the listeners move over to it. A
 * failed load rejects the action that waited, and the next action tries again (`load` is a retrying import).
 */
export function lazyOutbox(load: (tabId: string) => Promise<Outbox>): Outbox {
  const tabId = newId();
  let real: Outbox | null = null;
  let loading: Promise<Outbox> | null = null;
  let disposed = false;
  const changes = new Listeners();
  const discards = new Listeners<[OutboxRow]>();

  const attach = (outbox: Outbox): Outbox => {
    if (real) return real;
    real = outbox;
    if (disposed) outbox.dispose();
    outbox.subscribe(() => changes.emit());
    outbox.onDiscarded((row) => discards.emit(row));
    changes.emit();
    return outbox;
  };
  const get = (): Promise<Outbox> => {
    if (real) return Promise.resolve(real);
    loading ??= load(tabId).then(attach, (err: unknown) => {
      loading = null;
      throw err;
    });
    return loading;
  };
  void get().catch(() => undefined);

  return {
    tabId,
    ready: () => get().then((o) => o.ready()),
    enqueue: (input) => get().then((o) => o.enqueue(input)),
    enqueueMessage: (input) => get().then((o) => o.enqueueMessage(input)),
    retry: (id) => get().then((o) => o.retry(id)),
    discard: (id) => get().then((o) => o.discard(id)),
    edit: (id, text) => get().then((o) => o.edit(id, text)),
    confirmFromHistory: (messages) => get().then((o) => o.confirmFromHistory(messages)),
    pump: () => get().then((o) => o.pump()),
    rows: (sessionKey) => real?.rows(sessionKey) ?? NONE,
    row: (id) => real?.row(id),
    rowForQuestion: (questionId) => real?.rowForQuestion(questionId),
    subscribe: (listener) => changes.add(listener),
    onDiscarded: (listener) => discards.add(listener),
    dispose() {
      disposed = true;
      real?.dispose();
    },
  };
}

/**
 * The client as the outbox sees it, its `chat` listener registered now rather than when the outbox's code arrives: a
 * live message confirms its outbox row before the page's other listeners add it to the log, as when the outbox was
 * made with the first render (the pending row and the logged message never show together).
 */
export function chatListenedEarly(client: OutboxClient): OutboxClient {
  const on = client.on?.bind(client);
  if (!on) return client;
  type ChatListener = Parameters<typeof on<'chat'>>[1];
  const chat = new Listeners<Parameters<ChatListener>>();
  on('chat', (...args) => chat.emit(...args));
  return {
    request: client.request.bind(client),
    onState: client.onState.bind(client),
    get state() {
      return client.state;
    },
    on: ((event: string, listener: ChatListener) => (event === 'chat' ? chat.add(listener) : on(event as 'chat', listener))) as typeof on,
  };
}
