import { useState } from 'react';
import { Button } from '../../../components/ui/button.tsx';

const supported = () => typeof Notification !== 'undefined';

/** Offered only while the browser has not been asked yet; after an answer either way it stays out of sight (U13). */
export function EnableNotifications() {
  const [permission, setPermission] = useState(() => (supported() ? Notification.permission : 'denied'));
  if (permission !== 'default') return null;
  return (
    <Button
      variant="ghost"
      size="sm"
      className="qd-enable-notifications"
      onClick={() => {
        void Notification.requestPermission().then(setPermission, () => setPermission(Notification.permission));
      }}
    >
      Enable notifications
    </Button>
  );
}
