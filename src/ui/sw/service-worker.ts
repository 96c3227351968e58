/**
 * U17: the Control UI's service worker (built to `/sw.js`, see vite.config.ts). It keeps the built shell so the app
 * opens offline, shows a Web Push as a notification, closes it when its question was resolved elsewhere, and answers
 * from a notification's action through a small outbox of its own (IndexedDB), sent over a short socket to `/ws`.
 * It never caches `/ws`, `/healthz`, any other origin or the token (the token lives in IndexedDB only while the person
 * has "Notify me on this device" on: docs/security.md).
 */
import type { PushPayload } from '../../protocol/push.ts';
import { ACK_ACTION, enqueue, flush, tx, type Pending } from './push-outbox.ts';

/**
 * Replaced at build time (vite.config.ts) with the built files, a version made of their hashes and the protocol version
 * (imported there, not here: this file must stay one classic script, sharing no chunk with the app).
 */
declare const __ASKDOCK_SHELL__: { version: string; files: string[]; protocol: number };

type ExtendableEvent = Event & { waitUntil(p: Promise<unknown>): void };
type FetchEvent = ExtendableEvent & { request: Request; respondWith(r: Promise<Response> | Response): void };
type PushEvent = ExtendableEvent & { data: { text(): string } | null };
type NotificationEvent = ExtendableEvent & { action: string; notification: Notification & { data: unknown } };
type MessageEvent = ExtendableEvent & { data: unknown };
type WindowClient = { url: string; focus(): Promise<WindowClient>; navigate(url: string): Promise<WindowClient | null> };
type Scope = {
  location: Location;
  registration: {
    showNotification(title: string, options: NotificationOptions & { actions?: { action: string; title: string }[] }): Promise<void>;
    getNotifications(filter?: { tag?: string }): Promise<Notification[]>;
    sync?: { register(tag: string): Promise<void> };
  };
  clients: { matchAll(o: { type: 'window'; includeUncontrolled: boolean }): Promise<WindowClient[]>; openWindow(url: string): Promise<WindowClient | null>; claim(): Promise<void> };
  skipWaiting(): Promise<void>;
  addEventListener(type: string, fn: (e: never) => void): void;
};
const sw = self as unknown as Scope;

const SHELL = __ASKDOCK_SHELL__;
const CACHE = `askdock-shell-${SHELL.version}`;
const CACHE_PREFIX = 'askdock-shell-';

sw.addEventListener('install', (event: ExtendableEvent) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(['/index.html', ...SHELL.files]))
      .then(() => sw.skipWaiting()),
  );
});

sw.addEventListener('activate', (event: ExtendableEvent) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith(CACHE_PREFIX) && k !== CACHE).map((k) => caches.delete(k))))
      .then(() => sw.clients.claim()),
  );
});

/** Only the built shell is served from the cache; everything else (the socket, /healthz, other origins) goes to the network untouched. */
sw.addEventListener('fetch', (event: FetchEvent) => {
  const { request } = event;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== sw.location.origin) return;
  if (request.mode === 'navigate') {
    // The page itself: fresh when online (a new build), the cached shell when not. Its address (which may carry a
    // `?token=` for a moment) is never a cache key: only `/index.html` is.
    event.respondWith(fetch(request).catch(() => caches.match('/index.html', { cacheName: CACHE }).then((r) => r ?? Response.error())));
    return;
  }
  if (!SHELL.files.includes(url.pathname)) return;
  event.respondWith(caches.match(url.pathname, { cacheName: CACHE }).then((hit) => hit ?? fetch(request)));
});

// The outbox (answers chosen on a notification, kept until the gateway has them) is push-outbox.ts.

// --- notifications ---

/**
 * A question's notification once it is resolved: closed, or (E7, a routed question) turned quietly into who answered it
 * (an approval's Allow or Deny on the line above), without its actions; a tap on it still opens the question's page.
 */
function closeOrSay(n: Notification & { data?: unknown }, { text, decision }: Extract<PushPayload, { type: 'close' }>): Promise<void> | void {
  if (text === undefined) return n.close();
  // `resolved`: a "taken" pushed before the close may arrive after it, and must not turn it back.
  const { actions: _actions, itemId: _itemId, ...rest } = (n.data ?? {}) as Record<string, unknown>;
  const data = { ...rest, resolved: true };
  const body = decision ? `${decision}\n${text}` : text;
  return sw.registration.showNotification(n.title, { body, tag: n.tag, icon: '/icons/icon-192.png', badge: '/icons/badge-96.png', silent: true, data });
}

/**
 * E4: someone took the question ("Ana is on it"): said quietly on its notification, which keeps its answers, not "I'm on
 * it"; a notification already resolved (the close came first) or not a question's own stays as it is.
 */
function sayTaken(n: Notification & { data?: unknown }, text: string): Promise<void> | void {
  const shown = n.data as (Extract<PushPayload, { type: 'question' }> & { resolved?: true }) | null | undefined;
  if (shown?.type !== 'question' || shown.resolved) return;
  const { ack: _ack, ...data } = shown;
  return sw.registration.showNotification(n.title, { body: `${text}\n${data.body}`, tag: n.tag, icon: '/icons/icon-192.png', badge: '/icons/badge-96.png', silent: true, data, ...notificationActions(data) });
}

sw.addEventListener('push', (event: PushEvent) => {
  let payload: PushPayload;
  try {
    payload = JSON.parse(event.data?.text() ?? '') as PushPayload;
  } catch {
    return;
  }
  if (payload.type === 'close' || payload.type === 'taken') {
    const update = (n: Notification) => (payload.type === 'close' ? closeOrSay(n, payload) : sayTaken(n, payload.text));
    event.waitUntil(sw.registration.getNotifications({ tag: payload.id }).then((list) => Promise.all(list.map(update))));
    return;
  }
  // A push this worker does not know (a newer gateway's) shows nothing.
  if ((payload as { type: string }).type !== 'question') return;
  event.waitUntil(
    Promise.all([
      sw.registration.showNotification(payload.title, {
        body: payload.body,
        tag: payload.id,
        icon: '/icons/icon-192.png',
        badge: '/icons/badge-96.png',
        data: payload,
        ...notificationActions(payload),
      }),
      // A wake-up is also a chance to send what an earlier offline tap queued.
      flush().catch(() => undefined),
    ]),
  );
});

/**
 * A question's actions: its two answers; a routed one's (E4) "I'm on it" before them, or alone where the browser shows
 * too few actions for all three (never one answer without the other).
 */
function notificationActions(payload: Extract<PushPayload, { type: 'question' }>): { actions?: { action: string; title: string }[] } {
  const answers = (payload.actions ?? []).map((title, i) => ({ action: String(i), title }));
  if (!payload.ack) return answers.length ? { actions: answers } : {};
  const ack = { action: ACK_ACTION, title: "I'm on it" };
  const room = (globalThis as { Notification?: { maxActions?: number } }).Notification?.maxActions ?? 2;
  return { actions: room >= answers.length + 1 ? [ack, ...answers] : [ack] };
}

/** A tap on a notification: an action's label is queued as the answer and sent; the body opens the question's link page. */
function onNotificationTap(notification: Notification & { data: unknown }, action: string): Promise<unknown> | undefined {
  const payload = notification.data as Extract<PushPayload, { type: 'question' }> | null;
  if (!payload) return undefined;
  notification.close();
  if (action === ACK_ACTION && payload.ack) {
    const entry = { questionId: `ack:${payload.id}`, ack: payload.id, itemId: '', label: '', resolutionId: '' };
    return enqueue(entry).then(() => flush()).catch(() => undefined);
  }
  const label = action !== '' ? payload.actions?.[Number(action)] : undefined;
  if (label !== undefined && payload.itemId) {
    const entry = { questionId: payload.id, itemId: payload.itemId, label, resolutionId: `push-${payload.id}-${crypto.randomUUID()}` };
    return enqueue(entry)
      .then(() => flush())
      .catch(() => undefined)
      .then(() => sw.registration.sync?.register('askdock-outbox').catch(() => undefined));
  }
  const target = new URL(payload.path, sw.location.origin).href;
  return sw.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((windows) => {
    const open = windows.find((w) => w.url === target) ?? windows[0];
    if (!open) return sw.clients.openWindow(target);
    // navigate() refuses a window this worker does not control (opened before it took over): a new window then.
    return open.navigate(target).then(
      (w) => (w ?? open).focus().catch(() => undefined),
      () => sw.clients.openWindow(target),
    );
  });
}

sw.addEventListener('notificationclick', (event: NotificationEvent) => {
  const done = onNotificationTap(event.notification, event.action);
  if (done) event.waitUntil(done);
});

sw.addEventListener('sync', (event: ExtendableEvent & { tag: string }) => {
  if (event.tag === 'askdock-outbox') event.waitUntil(flush());
});

/**
 * From the app's own pages: the token while "Notify me on this device" is on (`null` forgets it), a nudge to send the
 * outbox (back online), and a tap on one of this worker's own notifications taken in the page (the browser's DevTools
 * and tests use it too): only a notification the worker showed can be acted on, with the data it was shown with.
 */
sw.addEventListener('message', (event: MessageEvent) => {
  const data = event.data as { type?: string; token?: string | null; tag?: string; action?: string };
  if (data?.type === 'notification-tap' && typeof data.tag === 'string') {
    event.waitUntil(
      sw.registration.getNotifications({ tag: data.tag }).then((list) => Promise.all(list.map((n) => onNotificationTap(n as Notification & { data: unknown }, String(data.action ?? ''))))),
    );
    return;
  }
  if (data?.type === 'token')
    event.waitUntil(tx<unknown>('auth', 'readwrite', (s) => (data.token ? s.put(data.token, 'token') : s.delete('token')) as IDBRequest<unknown>).then(() => flush()));
  else if (data?.type === 'flush') event.waitUntil(flush());
});
