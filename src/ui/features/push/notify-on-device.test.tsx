// @vitest-environment jsdom
import { act, cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { GatewayProvider } from '../../lib/gateway.tsx';
import { fakeClient } from '../questions/test-helpers.tsx';
import { NotifyOnDevice } from './notify-on-device.tsx';

/**
 * U17: the control's state against a stand-in browser (one push subscription, a service worker that records the token
 * it is handed) and a stand-in gateway that keeps subscription ids the way push.subscribe / push.list give them.
 */
const ENDPOINT = 'https://fcm.googleapis.com/fcm/send/phone';
let browserSubscribed: boolean;
let gatewayIds: Set<string>;
let workerTokens: (string | null)[];
let subscriptionLookups: number;

const subscription = {
  endpoint: ENDPOINT,
  options: { applicationServerKey: null },
  toJSON: () => ({ endpoint: ENDPOINT, expirationTime: null, keys: { p256dh: 'B'.repeat(87), auth: 'A'.repeat(22) } }),
  unsubscribe: async () => (browserSubscribed = false),
};
const registration = {
  active: { postMessage: (m: { token: string | null }) => workerTokens.push(m.token) },
  pushManager: {
    getSubscription: async () => (subscriptionLookups++, browserSubscribed ? subscription : null),
    subscribe: async () => ((browserSubscribed = true), subscription),
  },
};

function gateway() {
  const client = fakeClient();
  client.request.mockImplementation(async (method) => {
    if (method === 'push.list') return { subscriptions: [...gatewayIds].map((id) => ({ id, service: 'https://fcm.googleapis.com', createdAtMs: 1 })) };
    if (method === 'push.config') return { publicKey: 'BKey' };
    if (method === 'push.subscribe') return gatewayIds.add('ps_phone') && { subscribed: true, id: 'ps_phone' };
    throw new Error(`unexpected ${method}`);
  });
  return client;
}

/** Opens the app (a new visit): the control, connected as an operator. */
function visit() {
  cleanup();
  subscriptionLookups = 0;
  const client = gateway();
  render(
    <GatewayProvider client={client}>
      <NotifyOnDevice />
    </GatewayProvider>,
  );
  return { client, toggle: () => screen.getByRole('button', { name: 'Notify me on this device' }) };
}

/**
 * Waits until the control has looked (on connect) and shows what it found: after the browser's lookup the rest of the
 * look (push.list, the state) is promise work, done before the next task; act() then renders it.
 */
async function settled() {
  await vi.waitFor(() => expect(subscriptionLookups).toBeGreaterThan(0));
  await act(() => new Promise((r) => setTimeout(r, 0)));
}

beforeEach(() => {
  browserSubscribed = false;
  gatewayIds = new Set();
  workerTokens = [];
  localStorage.clear();
  sessionStorage.setItem('askdock.token', 'adk_new');
  Object.defineProperty(window, 'isSecureContext', { value: true, configurable: true });
  vi.stubGlobal('PushManager', class {});
  vi.stubGlobal('Notification', { requestPermission: async () => 'granted' });
  Object.defineProperty(navigator, 'serviceWorker', {
    configurable: true,
    value: { getRegistration: async () => registration, register: async () => registration, ready: Promise.resolve(registration) },
  });
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  Object.defineProperty(window, 'isSecureContext', { value: false, configurable: true });
  Reflect.deleteProperty(navigator, 'serviceWorker');
});

describe('U17 "Notify me on this device" says what the gateway has', () => {
  it('[U17] turned on, it shows on again on the next visit while the gateway still has this browser', async () => {
    const first = visit();
    await settled();
    await userEvent.click(first.toggle());
    await vi.waitFor(() => expect(first.toggle()).toHaveAttribute('aria-pressed', 'true'));

    const next = visit();
    await settled();
    expect(next.toggle()).toHaveAttribute('aria-pressed', 'true');
    expect(workerTokens.at(-1)).toBe('adk_new');
  });

  it('[U17] once the gateway has ended it (token rotated), it shows off, the worker forgets the token, and one click subscribes again', async () => {
    const first = visit();
    await settled();
    await userEvent.click(first.toggle());
    await vi.waitFor(() => expect(first.toggle()).toHaveAttribute('aria-pressed', 'true'));
    // The config's token was rotated: the gateway ends this browser's subscription; the browser still has its own.
    gatewayIds.clear();

    const next = visit();
    await settled();
    expect(browserSubscribed).toBe(true);
    expect(next.toggle()).toHaveAttribute('aria-pressed', 'false');
    expect(workerTokens.at(-1)).toBeNull();

    await userEvent.click(next.toggle());
    await vi.waitFor(() => expect(next.toggle()).toHaveAttribute('aria-pressed', 'true'));
    expect(next.client.request).toHaveBeenCalledWith('push.subscribe', { subscription: subscription.toJSON() });
    expect(gatewayIds).toEqual(new Set(['ps_phone']));
    expect(workerTokens.at(-1)).toBe('adk_new');
  });

  it('[U17] a subscription from before the token binding (the gateway lists only other devices) shows off', async () => {
    browserSubscribed = true;
    gatewayIds = new Set(['ps_laptop']);
    const { toggle } = visit();
    await settled();
    expect(toggle()).toHaveAttribute('aria-pressed', 'false');
  });
});
