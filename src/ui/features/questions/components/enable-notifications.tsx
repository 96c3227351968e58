import { useState } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { BellIcon } from '../../../components/ui/icons.tsx';

// Reading `Notification.permission` asks the browser each time, and the header mounts with every question: read it once.
let known: NotificationPermission | undefined;
function permissionNow(): NotificationPermission {
  // Plain http beyond localhost is no secure context: browsers refuse notifications there, so none is offered.
  if (typeof Notification === 'undefined' || globalThis.isSecureContext === false) return 'denied';
  return (known ??= Notification.permission);
}

/** Asked for once, from the top bar. Offered only while the browser has not been asked yet; after an answer either way it stays out of sight (U13). */
export function EnableNotifications() {
  const [permission, setPermission] = useState(permissionNow);
  if (permission !== 'default') return null;
  const settle = (answer: NotificationPermission) => setPermission((known = answer));
  return (
    <Button
      variant="ghost"
      size="sm"
      className="btn-icon"
      aria-label="Enable notifications"
      title="Enable notifications: hear about questions while this tab is hidden"
      onClick={() => {
        void Notification.requestPermission().then(settle, () => settle(Notification.permission));
      }}
    >
      <BellIcon />
    </Button>
  );
}
