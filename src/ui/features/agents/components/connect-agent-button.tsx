import { useRef, useState } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { LazyBoundary } from '../../../components/lazy-boundary.tsx';
import { useHello } from '../../../lib/gateway.tsx';
import { lazyWithRetry } from '../../../lib/lazy-with-retry.ts';
import { useConnectPanelShown } from '../stores/connect-shown.ts';

// Opened now and then: the dialog's code (Radix Dialog, the snippets) stays out of the first load.
const ConnectAgentDialog = lazyWithRetry(() => import('./connect-agent-dialog.tsx'), (m) => m.ConnectAgentDialog);

const PlugIcon = () => (
  <svg width="16" height="16" viewBox="0 0 16 16" fill="none" stroke="currentColor" strokeWidth="1.5" strokeLinecap="round" aria-hidden="true" focusable="false">
    <path d="M6 2v3M10 2v3M4.5 5h7v2.5a3.5 3.5 0 0 1-7 0V5ZM8 11v3" />
  </svg>
);

/**
 * U18: "Connect an agent" in the top bar for an admin (the one identity that may read agent tokens, A5), at any time
 * but while the page shows the same panel itself (the empty state).
 */
export function ConnectAgentButton() {
  const admin = useHello()?.auth.scopes.includes('operator.admin') === true;
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const panelShown = useConnectPanelShown();
  if (!admin || (panelShown && !open)) return null;
  return (
    <>
      <Button
        ref={button}
        variant="ghost"
        size="sm"
        className="connect-agent-trigger"
        aria-haspopup="dialog"
        aria-expanded={open}
        onPointerEnter={() => ConnectAgentDialog.preload()}
        onFocus={() => ConnectAgentDialog.preload()}
        onClick={() => setOpen(true)}
      >
        <PlugIcon />
        <span className="connect-agent-trigger-label">Connect an agent</span>
      </Button>
      {open && (
        <LazyBoundary>
          <ConnectAgentDialog open={open} onOpenChange={setOpen} returnFocus={() => button.current?.focus()} />
        </LazyBoundary>
      )}
    </>
  );
}
