import { useCallback, useState } from 'react';
import { takeComposerHandOff } from '../lib/composer-focus.ts';
import { useConnectionState } from '../lib/gateway.tsx';
import { useComposerSlot, type ComposerSlotProps } from '../lib/composer-slot.tsx';
import { Composer } from '../features/chat/components/composer.tsx';
import { useOutbox } from '../lib/outbox/use-outbox.ts';
import { useMaySendMessages } from '../lib/use-scopes.ts';
import { expandDock } from '../features/questions/index.tsx';
import { useComposerChecks } from './composer-checks.tsx';

/** The built-in composer, adapted to the slot's props. */
function DefaultComposer({ send, onCommand, disabled, autoFocus, initialText, sendInitial }: ComposerSlotProps) {
  return <Composer onSend={send} onCommand={onCommand} disabled={disabled} autoFocus={autoFocus} initialText={initialText} sendInitial={sendInitial} />;
}

/** What stands in the composer's place for a sign-in that may not send (A5: chat.send would refuse every message). */
const CANNOT_SEND_MESSAGES = 'This sign-in cannot send messages (that needs the operator.write scope); it can still answer the questions that reach it.';

/**
 * Renders whichever composer fills the slot (U14) for one session, wired to the outbox (chat.send) and `/question`;
 * for a sign-in that may not send, a note saying so instead, and neither before the gateway says which it is.
 */
export function SessionComposer({ sessionKey }: { sessionKey: string }) {
  const maySend = useMaySendMessages();
  const Slot = useComposerSlot(DefaultComposer);
  const outbox = useOutbox();
  const status = useConnectionState().status;
  const [handOff] = useState(takeComposerHandOff);

  // Into the outbox, stored before it is sent (U11): offline it waits Queued in the transcript, and survives a reload.
  const sendChat = useCallback(async (text: string) => void (await outbox.enqueueMessage({ sessionKey, text })), [outbox, sessionKey]);
  const { send, dialog } = useComposerChecks(sessionKey, sendChat);
  const onCommand = useCallback(
    (command: string) => {
      if (command === '/question') expandDock(sessionKey);
    },
    [sessionKey],
  );

  // A5: until the gateway says what this sign-in holds, an empty space the composer's height: no box that may vanish.
  if (maySend === null) return <div className="composer-pending" aria-hidden="true" />;
  if (!maySend) return <p className="muted composer-note">{CANNOT_SEND_MESSAGES}</p>;
  return (
    <>
      <Slot
        key={sessionKey}
        sessionKey={sessionKey}
        send={send}
        onCommand={onCommand}
        disabled={status === 'closed'}
        autoFocus={handOff.focus}
        initialText={handOff.text}
        sendInitial={handOff.send}
      />
      {dialog}
    </>
  );
}
