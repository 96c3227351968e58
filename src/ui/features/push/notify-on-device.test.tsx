// @vitest-environment jsdom
import { act, cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { GatewayProvider } from '../../lib/gateway.tsx';
import { fakeClient } from '../../../testing/ui-questions.tsx';
import { NotificationMenu } from './notification-menu.tsx';

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
let subscribeCalls: () => Promise<typeof subscription>;
const registration = {
  active: { postMessage: (m: { token: string | null }) => workerTokens.push(m.token) },
  pushManager: {
    getSubscription: async () => (subscriptionLookups++, browserSubscribed ? subscription : null),
    subscribe: () => subscribeCalls(),
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
      <NotificationMenu />
    </GatewayProvider>,
  );
  return { client, toggle: () => screen.getByRole('menuitemcheckbox', { name: /^Notify me on this device/ }) };
}

/** Opens the top bar's notification menu (the device choice lives in it). */
async function openMenu() {
  await userEvent.click(screen.getByRole('button', { name: 'Notifications' }));
}

/**
 * Waits until the control has looked (on connect) and shows what it found: after the browser's lookup the rest of the
 * look (push.list, the state) is promise work, done before the next task; act() then renders it.
 */
async function settled() {
  await vi.waitFor(() => expect(subscriptionLookups).toBeGreaterThan(0), { timeout: 10_000 });
  await act(() => new Promise((r) => setTimeout(r, 0)));
}

/** A visit on which the person turns notifications on; the menu is left open showing the choice on. */
async function visitAndTurnOn() {
  const first = visit();
  await settled();
  await openMenu();
  await userEvent.click(first.toggle());
  await screen.findByText(/^New questions now reach this device/);
  await openMenu();
  expect(first.toggle()).toHaveAttribute('aria-checked', 'true');
  return first;
}

beforeEach(() => {
  browserSubscribed = false;
  subscribeCalls = async () => ((browserSubscribed = true), subscription);
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
    const first = await visitAndTurnOn();

    const next = visit();
    await settled();
    await openMenu();
    expect(next.toggle()).toHaveAttribute('aria-checked', 'true');
    expect(workerTokens.at(-1)).toBe('adk_new');
  });

  it('[U17] once the gateway has ended it (token rotated), it shows off, the worker forgets the token, and one click subscribes again', async () => {
    const first = await visitAndTurnOn();
    // The config's token was rotated: the gateway ends this browser's subscription; the browser still has its own.
    gatewayIds.clear();

    const next = visit();
    await settled();
    await openMenu();
    expect(browserSubscribed).toBe(true);
    expect(next.toggle()).toHaveAttribute('aria-checked', 'false');
    expect(workerTokens.at(-1)).toBeNull();

    await userEvent.click(next.toggle());
    await screen.findByText(/^New questions now reach this device/);
    await openMenu();
    expect(next.toggle()).toHaveAttribute('aria-checked', 'true');
    expect(next.client.request).toHaveBeenCalledWith('push.subscribe', { subscription: subscription.toJSON() });
    expect(gatewayIds).toEqual(new Set(['ps_phone']));
    expect(workerTokens.at(-1)).toBe('adk_new');
  });

  it('[U17] a subscription from before the token binding (the gateway lists only other devices) shows off', async () => {
    browserSubscribed = true;
    gatewayIds = new Set(['ps_laptop']);
    const { toggle } = visit();
    await settled();
    await openMenu();
    expect(toggle()).toHaveAttribute('aria-checked', 'false');
  });
});

describe('U17 "Notify me on this device" always answers', () => {
  it('[U17] while the browser works on it the choice says "Turning on…" and the bell is busy; it stays off until subscribed', async () => {
    subscribeCalls = () => new Promise(() => {});
    const { toggle } = visit();
    await settled();
    await openMenu();
    await userEvent.click(toggle());
    await vi.waitFor(() => expect(toggle()).toHaveTextContent('Turning on…'), { timeout: 10_000 });
    expect(toggle()).toHaveAttribute('aria-checked', 'false');
    expect(screen.getByRole('button', { name: 'Notifications' })).toHaveAttribute('aria-busy', 'true');
    expect(screen.getByRole('status')).toHaveTextContent('Turning on notifications on this device…');
  });

  it('[U17] in a private window the browser refuses: the note says so in words and how to get it, not the raw message', async () => {
    subscribeCalls = () => Promise.reject(new DOMException('Registration failed - permission denied', 'NotAllowedError'));
    const { toggle } = visit();
    await settled();
    await openMenu();
    await userEvent.click(toggle());
    const note = await screen.findByText(/private \(incognito\) windows/);
    expect(note).toHaveTextContent('Open askdock in a normal window to get notifications on this device.');
    expect(screen.queryByText(/Registration failed/)).toBeNull();
    await openMenu();
    expect(toggle()).toHaveAttribute('aria-checked', 'false');
    expect(browserSubscribed).toBe(false);
  });

  it('[U13][U17] one labelled menu holds both choices: this tab and this device', async () => {
    visit();
    await settled();
    await openMenu();
    const menu = screen.getByRole('menu');
    expect(menu).toHaveTextContent('Tell me about new questions');
    expect(screen.getAllByRole('menuitemcheckbox').map((i) => i.textContent)).toEqual([
      'Notify me in this tabWhile the tab is hidden',
      'Notify me on this deviceAlso while askdock is closed',
    ]);
  });
});
