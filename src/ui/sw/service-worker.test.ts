import { beforeAll, describe, expect, it, vi } from 'vitest';

/**
 * U17: the service worker's fetch handler, run in a stand-in worker scope: a Cache Storage that records every key it
 * is given, a network that answers or fails, and the events the browser would send.
 */
type Listener = (event: unknown) => void;
const listeners = new Map<string, Listener>();
const cached = new Set<string>();
let online = true;

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
    registration: {},
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
