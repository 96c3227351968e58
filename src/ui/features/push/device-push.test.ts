// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { enableDevicePush, pushFailureText, PushTimeoutError, PUSH_DEADLINE_MS, pushUnavailable } from './device-push.ts';

const setSecure = (value: boolean) => Object.defineProperty(window, 'isSecureContext', { value, configurable: true });

afterEach(() => {
  setSecure(false);
});

describe('U17 where push cannot work', () => {
  it('[U17] on plain http away from localhost it says a secure address is needed, naming this one', () => {
    setSecure(false);
    expect(pushUnavailable()).toBe(
      `Notifications on this device need a secure address: open askdock over https (or on localhost). This page is on ${location.protocol}//${location.host}.`,
    );
  });

  it('[U17] in a secure context without push support it says the browser cannot', () => {
    setSecure(true);
    // jsdom has neither service workers nor PushManager.
    expect(pushUnavailable()).toMatch(/^This browser cannot show notifications from askdock/);
  });
});

describe('U17 turning push on is bounded', () => {
  const subscription = { endpoint: 'https://push.example/x', options: { applicationServerKey: null }, unsubscribe: vi.fn(async () => true), toJSON: () => ({}) };
  let answer: (s: typeof subscription) => void;
  beforeEach(() => {
    vi.useFakeTimers();
    subscription.unsubscribe.mockClear();
    const registration = { pushManager: { getSubscription: async () => null, subscribe: () => new Promise((r) => (answer = r)) } };
    vi.stubGlobal('Notification', { requestPermission: async () => 'granted' });
    Object.defineProperty(navigator, 'serviceWorker', {
      configurable: true,
      value: { getRegistration: async () => registration, register: async () => registration, ready: Promise.resolve(registration) },
    });
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
    Reflect.deleteProperty(navigator, 'serviceWorker');
  });

  it(`[U17] with no push service answering it fails after ${PUSH_DEADLINE_MS / 1000} s in words, and a late subscription is undone`, async () => {
    const client = { request: vi.fn(async (method: string) => (method === 'push.config' ? { publicKey: 'BKey' } : { id: 'ps_1' })) };
    const outcome = enableDevicePush(client as never).catch((err: unknown) => err);
    await vi.advanceTimersByTimeAsync(PUSH_DEADLINE_MS);
    const err = await outcome;
    expect(err).toBeInstanceOf(PushTimeoutError);
    expect(pushFailureText(err)).toMatch(/^No push service answered this browser within 15 s/);
    // The browser answers at last: nothing is kept that the control would not show.
    answer(subscription);
    await vi.runAllTimersAsync();
    expect(subscription.unsubscribe).toHaveBeenCalledTimes(1);
    expect(client.request).not.toHaveBeenCalledWith('push.subscribe', expect.anything());
  });

  it('[U17] the browser messages become words a person can act on', () => {
    expect(pushFailureText(new DOMException('Registration failed - permission denied', 'NotAllowedError'))).toMatch(/private \(incognito\) windows/);
    expect(pushFailureText(new DOMException('Registration failed - push service not available', 'AbortError'))).toMatch(/^No push service answered/);
  });
});
