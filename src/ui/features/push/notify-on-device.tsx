import { useEffect, useState } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { DeviceBellIcon } from '../../components/ui/icons.tsx';
import { errorMessage } from '../../lib/error-message.ts';
import { useGateway, useHello } from '../../lib/gateway.tsx';
import { devicePushOn, disableDevicePush, enableDevicePush, pushUnavailable } from './device-push.ts';
import { HeaderNote } from './header-note.tsx';
import './push.css';

type State = 'off' | 'on' | 'busy';
/** The scopes push.subscribe allows: those who may answer questions (A3). */
const SUBSCRIBERS = new Set(['operator.admin', 'operator.questions', 'operator.sessions.write']);

/**
 * U17: "Notify me on this device", beside the U13 bell: Web Push to this browser, also with askdock closed. Where the
 * browser cannot (plain http away from localhost, no push support) a tap says why instead of failing.
 */
export function NotifyOnDevice() {
  const client = useGateway();
  const hello = useHello();
  const [state, setState] = useState<State>('off');
  const [note, setNote] = useState<string | null>(null);
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
  if (!mayPush) return null;

  const toggle = async () => {
    if (unavailable) return setNote(unavailable);
    const was = state;
    setState('busy');
    try {
      if (was === 'on') {
        await disableDevicePush(client);
        setState('off');
        setNote('This device no longer gets notifications of new questions.');
        return;
      }
      const outcome = await enableDevicePush(client);
      setState(outcome === 'on' ? 'on' : 'off');
      setNote(
        outcome === 'on'
          ? 'New questions now reach this device as notifications, also while askdock is closed.'
          : 'Notifications are blocked for this site: allow them in the browser’s site settings, then try again.',
      );
    } catch (err) {
      setState(was);
      setNote(`Could not turn on notifications on this device: ${errorMessage(err)}`);
    }
  };

  const on = state === 'on';
  return (
    <>
      <Button
        variant="ghost"
        size="sm"
        className="btn-icon push-toggle"
        aria-label="Notify me on this device"
        aria-pressed={on}
        aria-busy={state === 'busy' || undefined}
        data-unavailable={unavailable ? true : undefined}
        title={unavailable ?? (on ? 'Notifications on this device are on: click to stop them' : 'Notify me on this device, also with askdock closed')}
        onClick={() => void toggle()}
      >
        <DeviceBellIcon />
      </Button>
      {note && <HeaderNote text={note} onDismiss={() => setNote(null)} />}
    </>
  );
}
