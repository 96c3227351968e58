import { Dialog } from 'radix-ui';
import { LoadFailed } from '../../../components/lazy-boundary.tsx';
import { errorMessage } from '../../../lib/error-message.ts';
import { useConnectInfo } from '../api/get-connect-info.ts';
import { ConnectAgentBody } from './connect-agent.tsx';
import './connect-agent.css';

type Props = { open: boolean; onOpenChange: (open: boolean) => void; returnFocus: () => void };

/** U18: "Connect an agent" from the top bar, for an admin at any time: the same token and snippets as the empty state. */
export function ConnectAgentDialog({ open, onOpenChange, returnFocus }: Props) {
  const info = useConnectInfo();
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="connect-dialog-overlay" />
        <Dialog.Content
          className="connect-dialog"
          aria-describedby={undefined}
          onCloseAutoFocus={(e) => {
            e.preventDefault();
            returnFocus();
          }}
        >
          <div className="connect-dialog-head">
            <Dialog.Title className="connect-dialog-title">Connect an agent</Dialog.Title>
            <Dialog.Close className="btn btn-ghost btn-sm" aria-label="Close">
              ✕
            </Dialog.Close>
          </div>
          <div className="connect-agent connect-dialog-body">
            {info.data ? (
              <ConnectAgentBody info={info.data} />
            ) : info.isError ? (
              <p className="inline-error">Could not load the agent token: {errorMessage(info.error)}</p>
            ) : info.fetchStatus === 'idle' ? (
              <LoadFailed what="how to connect an agent" />
            ) : (
              <p className="muted">Loading the agent token…</p>
            )}
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
