import 'fake-indexeddb/auto';
import { beforeAll, describe, expect, it, vi } from 'vitest';

/**
 * U17: the service worker, run in a stand-in worker scope: a Cache Storage that records every key it is given, a
 * network that answers or fails (fetch, and the gateway's `/ws` socket), and the events the browser would send.
 */
type Listener = (event: unknown) => void;
const listeners = new Map<string, Listener>();
const cached = new Set<string>();
let online = true;

/** The notifications the worker shows, as the browser keeps them (one per tag). */
type Shown = { title: string; tag: string; body: string; data: unknown; actions?: unknown; close: () => void };
const shown: Shown[] = [];

/** What reached the gateway over `/ws`: every `question.resolve` request's params, in order. */
const resolved: unknown[] = [];
/** Every `question.ack` request's params (E4: "I'm on it" from a notification). */
const acked: unknown[] = [];

/** The gateway's socket as the worker sees it: offline it errors and closes; online it answers like the gateway. */
class GatewaySocket {
  onmessage: ((m: { data: string }) => void) | null = null;
  onerror: (() => void) | null = null;
  onclose: (() => void) | null = null;
  constructor(readonly url: string) {
    setTimeout(() => {
      if (!online) {
        this.onerror?.();
        this.onclose?.();
      } else this.onmessage?.({ data: JSON.stringify({ type: 'event', event: 'connect.challenge', payload: { nonce: 'n' } }) });
    });
  }
  send(text: string) {
    const req = JSON.parse(text) as { id: string; method: string; params: unknown };
    if (req.method === 'question.resolve') resolved.push(req.params);
    if (req.method === 'question.ack') acked.push(req.params);
    setTimeout(() => this.onmessage?.({ data: JSON.stringify({ type: 'res', id: req.id, ok: true, payload: {} }) }));
  }
  close() {
    setTimeout(() => this.onclose?.());
  }
}

const keyOf = (r: Request | string) => (typeof r === 'string' ? new URL(r, 'https://askdock.test').href : r.url);
const cache = {
  addAll: async (urls: string[]) => urls.forEach((u) => cached.add(keyOf(u))),
  put: async (r: Request | string) => void cached.add(keyOf(r)),
  add: async (r: Request | string) => void cached.add(keyOf(r)),
};

beforeAll(async () => {
  vi.stubGlobal('__ASKDOCK_SHELL__', { version: 'v1', files: ['/assets/app-abc.js'], protocol: 1 });
  vi.stubGlobal('self', {
    location: new URL('https://askdock.test/'),
    registration: {
      sync: { register: async () => undefined },
      getNotifications: async ({ tag }: { tag: string }) => shown.filter((n) => n.tag === tag),
      showNotification: async (title: string, options: { tag: string; body: string; data: unknown }) => {
        shown.splice(0, shown.length, ...shown.filter((n) => n.tag !== options.tag), { title, ...options, close: () => shown.splice(shown.findIndex((x) => x.tag === options.tag), 1) });
      },
    },
    clients: { claim: async () => undefined },
    skipWaiting: async () => undefined,
    addEventListener: (type: string, fn: Listener) => listeners.set(type, fn),
  });
  vi.stubGlobal('caches', {
    open: async () => cache,
    keys: async () => [],
    match: async (r: Request | string) => (cached.has(keyOf(r)) ? new Response('cached') : undefined),
  });
  vi.stubGlobal('fetch', async () => {
    if (!online) throw new TypeError('offline');
    return new Response('fresh');
  });
  vi.stubGlobal('WebSocket', GatewaySocket);
  await import('./service-worker.ts');
  await fire('install');
  await fire('activate');
});

async function fire(type: string, extra: Record<string, unknown> = {}): Promise<Response | undefined> {
  const waits: Promise<unknown>[] = [];
  let answer: Promise<Response> | Response | undefined;
  listeners.get(type)!({ ...extra, waitUntil: (p: Promise<unknown>) => waits.push(p), respondWith: (r: Promise<Response> | Response) => (answer = r) });
  await Promise.all(waits);
  return await answer;
}

// A Request's mode is read-only (a navigation cannot be built outside a browser), so the handler gets a stand-in.
const get = (path: string, mode: RequestMode) => {
  const url = `https://askdock.test${path}`;
  return fire('fetch', { request: { url, mode, method: 'GET', headers: new Headers() } });
};

describe('U17 service worker cache', () => {
  it('[U17] never caches a URL with ?token=, also when /?token=… is opened while the worker controls the page, online or offline', async () => {
    for (const state of [true, false]) {
      online = state;
      const page = await get('/?token=adk_secret123', 'navigate');
      // Offline, the shell comes from the cache under /index.html, never under the address asked for.
      expect(await page?.text()).toBe(state ? 'fresh' : 'cached');
      await get('/q/abc?token=adk_secret123', 'navigate');
      await get('/assets/app-abc.js?token=adk_secret123', 'no-cors');
    }
    expect([...cached].filter((k) => k.includes('token'))).toEqual([]);
    expect([...cached].sort()).toEqual(['https://askdock.test/assets/app-abc.js', 'https://askdock.test/index.html']);
  });
});

describe('U17 notification actions through the outbox', () => {
  const payload = { type: 'question', id: 'q_lunch', itemId: 'lunch', title: 'Lunch', body: 'Pizza or sushi?', actions: ['Pizza', 'Sushi'], path: '/q/q_lunch' };
  const tap = (action: string) => fire('notificationclick', { action, notification: { data: payload, close: () => undefined } });

  it('[U17] two taps on different actions while offline send the first tap\'s answer exactly once when the network returns', async () => {
    await fire('message', { data: { type: 'token', token: 'adk_phone' } });
    online = false;
    await tap('0');
    await tap('1');
    expect(resolved).toEqual([]);

    online = true;
    // Back online the browser fires the registered sync, and an open page may nudge at the same moment.
    await Promise.all([fire('sync', { tag: 'askdock-outbox' }), fire('message', { data: { type: 'flush' } })]);
    await fire('sync', { tag: 'askdock-outbox' });
    expect(resolved).toEqual([{ id: 'q_lunch', answers: { lunch: ['Pizza'] }, resolutionId: expect.stringMatching(/^push-q_lunch-/), surface: 'push' }]);
  });
});

describe('E7 a resolved question\'s notification', () => {
  const push = (payload: unknown) => fire('push', { data: { text: () => JSON.stringify(payload) } });
  const question = (id: string) => ({ type: 'question', id, itemId: 'env', title: 'Env', body: 'Which?', actions: ['Staging', 'Production'], path: `/q/${id}` });

  it('[E7] turns into who answered a routed question, without its actions; an unrouted one just closes', async () => {
    await push(question('q_routed'));
    await push(question('q_plain'));
    expect(shown.map((n) => n.tag)).toEqual(['q_routed', 'q_plain']);
    await push({ type: 'close', id: 'q_routed', text: 'Answered by Bo · TUI' });
    await push({ type: 'close', id: 'q_plain' });
    expect(shown).toHaveLength(1);
    expect(shown[0]).toMatchObject({ title: 'Env', tag: 'q_routed', body: 'Answered by Bo · TUI', data: { id: 'q_routed', path: '/q/q_routed' } });
    expect(shown[0].actions).toBeUndefined();
    expect((shown[0].data as { actions?: unknown }).actions).toBeUndefined();
  });

  it('[E7] a routed approval\'s turns into its Deny and, on a line of its own, who answered it', async () => {
    await push({ ...question('q_approval'), title: 'Bash', body: 'Allow Bash(git push)?', actions: ['Allow', 'Deny'] });
    await push({ type: 'close', id: 'q_approval', text: 'Answered by Bo · Telegram', decision: 'Deny' });
    const said = shown.filter((n) => n.tag === 'q_approval');
    expect(said).toHaveLength(1);
    expect(said[0]).toMatchObject({ title: 'Bash', body: 'Deny\nAnswered by Bo · Telegram' });
    expect(said[0].actions).toBeUndefined();
  });
});

describe('E4 "I\'m on it" from a notification', () => {
  it('[E4] a routed question\'s notification offers "I\'m on it" (alone where the browser shows two actions, never one answer of two); a tap sends question.ack and answers nothing', async () => {
    await fire('message', { data: { type: 'token', token: 'adk_phone' } });
    online = true;
    const payload = { type: 'question', id: 'q_take', itemId: 'env', title: 'Env', body: 'Which?', actions: ['Staging', 'Production'], path: '/q/q_take', ack: true };
    await fire('push', { data: { text: () => JSON.stringify(payload) } });
    const note = shown.find((n) => n.tag === 'q_take');
    expect(note?.actions).toEqual([{ action: 'ack', title: "I'm on it" }]);
    const before = resolved.length;
    await fire('notificationclick', { action: 'ack', notification: { data: payload, close: () => undefined } });
    expect(acked).toEqual([{ id: 'q_take' }]);
    expect(resolved).toHaveLength(before);
  });

  it('[E4] taken elsewhere: the notification says who is on it, quietly, and keeps its answers without "I\'m on it"', async () => {
    const payload = { type: 'question', id: 'q_taken', itemId: 'env', title: 'Env', body: 'Which?', actions: ['Staging', 'Production'], path: '/q/q_taken', ack: true };
    await fire('push', { data: { text: () => JSON.stringify(payload) } });
    await fire('push', { data: { text: () => JSON.stringify({ type: 'taken', id: 'q_taken', text: 'Ana is on it' }) } });
    const note = shown.filter((n) => n.tag === 'q_taken');
    expect(note).toHaveLength(1);
    expect(note[0]).toMatchObject({ title: 'Env', body: 'Ana is on it\nWhich?', silent: true, actions: [{ action: '0', title: 'Staging' }, { action: '1', title: 'Production' }] });
    // A question whose notification is gone shows none again.
    await fire('push', { data: { text: () => JSON.stringify({ type: 'taken', id: 'q_nowhere', text: 'Ana is on it' }) } });
    expect(shown.some((n) => n.tag === 'q_nowhere')).toBe(false);
  });

  it('[E4][E7] a "taken" that arrives after the close (pushes keep no order) leaves "Answered by…" as it is', async () => {
    const payload = { type: 'question', id: 'q_late', itemId: 'env', title: 'Env', body: 'Which?', actions: ['Staging', 'Production'], path: '/q/q_late', ack: true };
    await fire('push', { data: { text: () => JSON.stringify(payload) } });
    await fire('push', { data: { text: () => JSON.stringify({ type: 'close', id: 'q_late', text: 'Answered by Bo · TUI' }) } });
    const { type: _type, ack: _ack, ...fields } = payload;
    await fire('push', { data: { text: () => JSON.stringify({ ...fields, type: 'taken', body: 'Ana is on it\nWhich?', text: 'Ana is on it' }) } });
    const note = shown.filter((n) => n.tag === 'q_late');
    expect(note).toHaveLength(1);
    expect(note[0]).toMatchObject({ title: 'Env', body: 'Answered by Bo · TUI' });
    expect(note[0].actions).toBeUndefined();
  });

  it('[U17] a push of a type this worker does not know changes no notification', async () => {
    const payload = { type: 'question', id: 'q_unknown', title: 'Env', body: 'Which?', path: '/q/q_unknown', ack: true };
    await fire('push', { data: { text: () => JSON.stringify(payload) } });
    await fire('push', { data: { text: () => JSON.stringify({ type: 'snoozed', id: 'q_unknown', until: 5 }) } });
    await fire('push', { data: { text: () => JSON.stringify({ type: 'snoozed', id: 'q_other' }) } });
    expect(shown.filter((n) => n.tag === 'q_unknown')).toMatchObject([{ title: 'Env', body: 'Which?', actions: [{ action: 'ack', title: "I'm on it" }] }]);
    expect(shown.some((n) => n.tag === 'q_other')).toBe(false);
  });
});

describe('U17 a tap on the notification itself opens the question\'s link page', () => {
  const payload = { type: 'question', id: 'q_open', title: 'Env', body: 'Which?', path: '/q/q_open' };
  const target = 'https://askdock.test/q/q_open';
  function windowsAre(windows: { url: string; navigate: (url: string) => Promise<unknown>; focus: () => Promise<unknown> }[]) {
    const opened: string[] = [];
    const clients = (globalThis as unknown as { self: { clients: Record<string, unknown> } }).self.clients;
    clients.matchAll = async () => windows;
    clients.openWindow = async (url: string) => void opened.push(url);
    return opened;
  }
  const tapBody = () => fire('notificationclick', { action: '', notification: { data: payload, close: () => undefined } });

  it('[U17] an open askdock window goes to the link page', async () => {
    const went: string[] = [];
    const win = { url: 'https://askdock.test/s/abc', navigate: async (url: string) => void went.push(url), focus: async () => win };
    const opened = windowsAre([win]);
    await tapBody();
    expect(went).toEqual([target]);
    expect(opened).toEqual([]);
  });

  it('[U17] a window this worker cannot steer (opened before it took over) leaves the tap to a new window, never to nothing', async () => {
    const win = { url: 'https://askdock.test/s/abc', navigate: () => Promise.reject(new TypeError('not controlled')), focus: async () => win };
    const opened = windowsAre([win]);
    await tapBody();
    expect(opened).toEqual([target]);
  });
});
