/**
 * U17: the service worker's outbox: a notification's answer or "I'm on it" is queued in IndexedDB (one per question on
 * this device) and sent over a short socket to `/ws` with the token the page left there; what could not be sent stays
 * for the next wake-up. Part of the worker's one classic script (only service-worker.ts imports it).
 */

/** Replaced at build time (vite.config.ts): the protocol version the worker's socket speaks. */
declare const __ASKDOCK_SHELL__: { protocol: number };

/** An answer to send; or (E4) with `ack`, "I'm on it" for question `ack`, kept under `ack:<id>` beside its answer. */
export type Pending = { questionId: string; itemId: string; label: string; resolutionId: string; ack?: string };
export const ACK_ACTION = 'ack';
const DB = 'askdock-push';

function db(): Promise<IDBDatabase> {
  return new Promise((ok, fail) => {
    const open = indexedDB.open(DB, 1);
    open.onupgradeneeded = () => {
      open.result.createObjectStore('outbox', { keyPath: 'questionId' });
      open.result.createObjectStore('auth');
    };
    open.onsuccess = () => ok(open.result);
    open.onerror = () => fail(open.error);
  });
}

export async function tx<T>(store: 'outbox' | 'auth', mode: IDBTransactionMode, fn: (s: IDBObjectStore) => IDBRequest<T>): Promise<T> {
  const conn = await db();
  try {
    return await new Promise<T>((ok, fail) => {
      const req = fn(conn.transaction(store, mode).objectStore(store));
      req.onsuccess = () => ok(req.result);
      req.onerror = () => fail(req.error);
    });
  } finally {
    conn.close();
  }
}

const readToken = () => tx<string | undefined>('auth', 'readonly', (s) => s.get('token') as IDBRequest<string | undefined>);

/** One answer per question on this device: a second tap (or the same action fired twice) finds it queued and adds nothing. */
export async function enqueue(entry: Pending): Promise<void> {
  // `add` refuses a key already there, inside one transaction: two taps at once still queue one answer.
  await tx('outbox', 'readwrite', (s) => s.add(entry)).catch((err: unknown) => {
    if ((err as DOMException | null)?.name !== 'ConstraintError') throw err;
  });
}

let flushing: Promise<void> | null = null;
/** Sends what the outbox holds; what the gateway could not be reached for stays for the next wake-up. */
export function flush(): Promise<void> {
  return (flushing ??= sendAll().finally(() => (flushing = null)));
}

async function sendAll(): Promise<void> {
  const entries = await tx<Pending[]>('outbox', 'readonly', (s) => s.getAll() as IDBRequest<Pending[]>);
  const token = await readToken();
  if (entries.length === 0 || !token) return;
  const done = await resolveOverSocket(token, entries);
  for (const id of done) await tx('outbox', 'readwrite', (s) => s.delete(id));
}

/** Final outcomes: answered now, or already answered / gone (nothing to send again). */
const SETTLED_ERRORS = new Set(['QUESTION_ALREADY_TERMINAL', 'QUESTION_NOT_FOUND', 'INVALID_REQUEST', 'FORBIDDEN']);

function resolveOverSocket(token: string, entries: Pending[]): Promise<string[]> {
  return new Promise((finish) => {
    const done: string[] = [];
    const url = `${self.location.protocol === 'https:' ? 'wss' : 'ws'}://${self.location.host}/ws`;
    let socket: WebSocket;
    try {
      socket = new WebSocket(url);
    } catch {
      return finish(done);
    }
    let open = entries.length;
    const end = () => {
      socket.close();
      finish(done);
    };
    socket.onerror = end;
    socket.onclose = () => finish(done);
    socket.onmessage = (msg) => {
      const frame = JSON.parse(String(msg.data)) as { type: string; event?: string; id?: string; ok?: boolean; error?: { code: string } };
      if (frame.type === 'event' && frame.event === 'connect.challenge') {
        socket.send(
          JSON.stringify({
            type: 'req',
            id: '__connect',
            method: 'connect',
            params: {
              minProtocol: __ASKDOCK_SHELL__.protocol,
              maxProtocol: __ASKDOCK_SHELL__.protocol,
              client: { id: `push-${crypto.randomUUID()}`, name: 'askdock notifications', version: '0.1.0', platform: 'browser', mode: 'ui' },
              auth: { token },
            },
          }),
        );
        return;
      }
      if (frame.type !== 'res') return;
      if (frame.id === '__connect') {
        if (!frame.ok) return end();
        for (const e of entries)
          socket.send(
            JSON.stringify(
              e.ack !== undefined
                ? { type: 'req', id: e.questionId, method: 'question.ack', params: { id: e.ack } }
                : {
                    type: 'req',
                    id: e.questionId,
                    method: 'question.resolve',
                    params: { id: e.questionId, answers: { [e.itemId]: [e.label] }, resolutionId: e.resolutionId, surface: 'push' },
                  },
            ),
          );
        return;
      }
      if (frame.id && (frame.ok || SETTLED_ERRORS.has(frame.error?.code ?? ''))) done.push(frame.id);
      if (--open === 0) end();
    };
  });
}
