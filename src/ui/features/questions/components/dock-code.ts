import { preloaded } from '../../../lib/preloaded.ts';
import { draftChangesReady } from '../stores/later-drafts.ts';

// What an expanded request or a secret request shows: chunks of their own, fetched as the app starts.
export const RequestPanel = preloaded(() => import('./request-panel.tsx'), (m) => m.RequestPanel);
export const SecretPrompt = preloaded(() => import('./secret-prompt.tsx'), (m) => m.SecretPrompt);
// The slim bars show a draft's step: they come with the drafts store, which the first load goes without.
export const CollapsedBar = preloaded(() => import('./collapsed-bar.tsx'), (m) => m.CollapsedBar);
export const SecretWaiting = preloaded(() => import('./collapsed-bar.tsx'), (m) => m.SecretWaiting);
/** Settles once the dock can show whatever the gateway sends: the client connects only then. */
export const dockCodeReady: Promise<void> = Promise.all([RequestPanel.ready, SecretPrompt.ready, CollapsedBar.ready, SecretWaiting.ready, draftChangesReady]).then(
  () => undefined,
);
