import { useEffect, useState } from 'react';
import { useGateway, useHello } from '../../lib/gateway.tsx';
import { devicePushOn, disableDevicePush, enableDevicePush, pushFailureText, pushUnavailable } from './device-push.ts';

export type DevicePushState = 'off' | 'on' | 'busy';
/** The scopes push.subscribe allows: those who may answer questions (A3). */
const SUBSCRIBERS = new Set(['operator.admin', 'operator.questions', 'operator.sessions.write']);

/**
 * U17: "Notify me on this device": Web Push to this browser, also with askdock closed. Where the browser cannot (plain
 * http away from localhost, no push support) using it says why; turning it on is bounded (no push service reachable
 * ends in words, not silence), and the state shown is the one the gateway and the browser have.
 */
export function useDevicePush(report: (note: string) => void) {
  const client = useGateway();
  const hello = useHello();
  const [state, setState] = useState<DevicePushState>('off');
  const unavailable = pushUnavailable();
  const mayPush = hello?.auth.scopes.some((s) => SUBSCRIBERS.has(s)) ?? false;
  // On each connect: on only while the gateway still has this browser's subscription (a rotated token ends it).
  useEffect(() => {
    if (unavailable || !hello || !mayPush) return;
    let current = true;
    devicePushOn(client).then(
      (on) => current && setState(on ? 'on' : 'off'),
      () => current && setState('off'),
    );
    return () => {
      current = false;
    };
  }, [unavailable, client, hello, mayPush]);

  const toggle = async () => {
    if (unavailable) return report(unavailable);
    if (state === 'busy') return;
    const was = state;
    setState('busy');
    try {
      if (was === 'on') {
        await disableDevicePush(client);
        setState('off');
        return report('This device no longer gets notifications of new questions.');
      }
      const outcome = await enableDevicePush(client);
      setState(outcome === 'on' ? 'on' : 'off');
      report(
        outcome === 'on'
          ? 'New questions now reach this device as notifications, also while askdock is closed.'
          : 'Notifications are blocked for this site: allow them in the browser’s site settings, then try again.',
      );
    } catch (err) {
      setState(was);
      report(pushFailureText(err));
    }
  };
  return { state, mayPush, unavailable, toggle };
}
