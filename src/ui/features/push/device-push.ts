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

export async function enableDevicePush(client: GatewayClient): Promise<EnableOutcome> {
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
