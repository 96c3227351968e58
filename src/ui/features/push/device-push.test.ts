// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { pushUnavailable } from './device-push.ts';

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
