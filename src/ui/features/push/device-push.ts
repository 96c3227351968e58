import type { GatewayClient } from '../../../client/client.ts';
import { takeToken } from '../../lib/token.ts';

/** U17: why push cannot work in this browser, in words for the person; undefined when it can. */
export function pushUnavailable(): string | undefined {
  if (typeof window === 'undefined') return 'Notifications on this device are not available here.';
  if (!window.isSecureContext)
    return `Notifications on this device need a secure address: open askdock over https (or on localhost). This page is on ${location.protocol}//${location.host}.`;
  if (!('serviceWorker' in navigator) || !('PushManager' in window) || typeof Notification === 'undefined')
    return 'This browser cannot show notifications from askdock. Add askdock to the Home Screen first (iPhone, iPad), or use another browser.';
  return undefined;
}

const base64UrlToBytes = (s: string) => {
  const raw = atob(s.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (s.length % 4)) % 4));
  return Uint8Array.from(raw, (c) => c.charCodeAt(0));
};

async function worker(): Promise<ServiceWorkerRegistration> {
  // The page registers it after first paint; a click before that registers it here.
  const existing = await navigator.serviceWorker.getRegistration('/');
  if (!existing) await navigator.serviceWorker.register('/sw.js', { scope: '/' });
  return navigator.serviceWorker.ready;
}

/** The worker answers a notification's action with this identity's token, so it gets it while push is on (docs/security.md). */
function handTokenTo(reg: ServiceWorkerRegistration, token: string | null): void {
  reg.active?.postMessage({ type: 'token', token });
}

/** Where this browser keeps the id push.subscribe gave its subscription (with the endpoint it was for): no secret. */
const SUBSCRIPTION_ID = 'askdock.push.subscription';

function rememberId(endpoint: string, id: string | null): void {
  if (id) localStorage.setItem(SUBSCRIPTION_ID, JSON.stringify({ endpoint, id }));
  else localStorage.removeItem(SUBSCRIPTION_ID);
}

function rememberedId(endpoint: string): string | undefined {
  try {
    const kept = JSON.parse(localStorage.getItem(SUBSCRIPTION_ID) ?? 'null') as { endpoint?: unknown; id?: unknown } | null;
    return kept?.endpoint === endpoint && typeof kept.id === 'string' ? kept.id : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether the gateway still sends to this browser: it has a push subscription and the caller's `push.list` still holds
 * the id push.subscribe gave it. The gateway ends a subscription whose token no longer authenticates (rotated) and any
 * made before subscriptions were bound to a token; then this device is off (one click subscribes it again) and the
 * worker forgets the token (docs/security.md). Still on, the worker gets this visit's token, which may be a new one.
 */
export async function devicePushOn(client: GatewayClient): Promise<boolean> {
  if (pushUnavailable()) return false;
  const reg = await navigator.serviceWorker.getRegistration('/');
  const sub = (await reg?.pushManager.getSubscription()) ?? null;
  if (!reg || !sub) return false;
  const { subscriptions } = await client.request('push.list', {});
  const id = rememberedId(sub.endpoint);
  const on = id !== undefined && subscriptions.some((s) => s.id === id);
  handTokenTo(reg, on ? takeToken() : null);
  return on;
}

export type EnableOutcome = 'on' | 'denied';

/** How long turning push on may take before the person is told (a browser without a reachable push service never answers). */
export const PUSH_DEADLINE_MS = 15_000;

/** Turning push on took past the deadline: no push service answered this browser. */
export class PushTimeoutError extends Error {
  constructor() {
    super('no push service answered');
    this.name = 'PushTimeoutError';
  }
}

/**
 * U17: what went wrong turning push on, in words a person can act on. The browser's own messages ("Registration failed -
 * permission denied") name neither the cause nor the way out.
 */
export function pushFailureText(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  if (err instanceof PushTimeoutError || /push service (not available|error)|no push service/i.test(message))
    return `No push service answered this browser within ${PUSH_DEADLINE_MS / 1000} s, so this device gets no notifications while askdock is closed. Check the network (a firewall may block the browser's push service), or use another browser. Notifications in this tab still work.`;
  if (/permission denied|NotAllowed/i.test(message) || (err instanceof DOMException && err.name === 'NotAllowedError'))
    return 'This browser refused a push subscription, as private (incognito) windows do. Open askdock in a normal window to get notifications on this device.';
  if (err instanceof DOMException && err.name === 'SecurityError')
    return 'Notifications on this device need a secure address: open askdock over https (or on localhost).';
  return `Could not turn on notifications on this device: ${message}`;
}

/**
 * Turns push on, or fails with PushTimeoutError after `deadlineMs`. A subscription the browser makes after that is
 * undone, so the control never shows off while the browser is in fact subscribed.
 */
export function enableDevicePush(client: GatewayClient, deadlineMs = PUSH_DEADLINE_MS): Promise<EnableOutcome> {
  const run = { late: false };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      run.late = true;
      reject(new PushTimeoutError());
    }, deadlineMs);
    subscribe(client, run).then(
      (outcome) => (clearTimeout(timer), resolve(outcome)),
      (err: unknown) => (clearTimeout(timer), reject(err)),
    );
  });
}

async function subscribe(client: GatewayClient, run: { late: boolean }): Promise<EnableOutcome> {
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') return 'denied';
  const reg = await worker();
  const { publicKey } = await client.request('push.config', {});
  let sub = await reg.pushManager.getSubscription();
  // A subscription made with another key (the gateway's key pair was made anew) no longer works: start over.
  const key = sub?.options.applicationServerKey;
  if (sub && key && btoa(String.fromCharCode(...new Uint8Array(key))).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '') !== publicKey) {
    await sub.unsubscribe();
    sub = null;
  }
  sub ??= await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: base64UrlToBytes(publicKey) });
  if (run.late) {
    // The person was already told it failed: leave nothing behind that the control does not show.
    await sub.unsubscribe();
    return 'denied';
  }
  const json = sub.toJSON() as { endpoint: string; expirationTime?: number | null; keys: { p256dh: string; auth: string } };
  const { id } = await client.request('push.subscribe', { subscription: json });
  rememberId(sub.endpoint, id);
  handTokenTo(reg, takeToken());
  return 'on';
}

export async function disableDevicePush(client: GatewayClient): Promise<void> {
  const reg = await navigator.serviceWorker.getRegistration('/');
  const sub = await reg?.pushManager.getSubscription();
  if (sub) {
    await client.request('push.unsubscribe', { endpoint: sub.endpoint }).catch(() => undefined);
    await sub.unsubscribe();
    rememberId(sub.endpoint, null);
  }
  if (reg) handTokenTo(reg, null);
}
