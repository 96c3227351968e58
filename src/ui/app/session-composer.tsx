import { useCallback, useState } from 'react';
import { takeComposerHandOff } from '../lib/composer-focus.ts';
import { useConnectionState } from '../lib/gateway.tsx';
import { useComposerSlot, type ComposerSlotProps } from '../lib/composer-slot.tsx';
import { Composer } from '../features/chat/components/composer.tsx';
import { useOutbox } from '../lib/outbox/use-outbox.ts';
import { expandDock } from '../features/questions/index.tsx';
import { useComposerChecks } from './composer-checks.tsx';

/** The built-in composer, adapted to the slot's props. */
function DefaultComposer({ send, onCommand, disabled, autoFocus, initialText, sendInitial }: ComposerSlotProps) {
  return <Composer onSend={send} onCommand={onCommand} disabled={disabled} autoFocus={autoFocus} initialText={initialText} sendInitial={sendInitial} />;
}

/** Renders whichever composer fills the slot (U14) for one session, wired to the outbox (chat.send) and `/question`. */
export function SessionComposer({ sessionKey }: { sessionKey: string }) {
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
