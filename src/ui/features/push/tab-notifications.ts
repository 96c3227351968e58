import { useState } from 'react';

/** U13: whether this tab may show a notification of a question that arrives while it is hidden. */
export type TabPermission = NotificationPermission | 'unavailable';

function permissionNow(): TabPermission {
  // Plain http beyond localhost is no secure context: browsers refuse notifications there.
  if (typeof Notification === 'undefined' || globalThis.isSecureContext === false) return 'unavailable';
  return Notification.permission;
}

/** The tab's permission and a way to ask for it; asking after a refusal only says where to change it. */
export function useTabNotifications(): { permission: TabPermission; ask: () => Promise<TabPermission> } {
  const [permission, setPermission] = useState(permissionNow);
  const ask = async (): Promise<TabPermission> => {
    if (permission !== 'default') return permission;
    const answer = await Notification.requestPermission().catch(() => Notification.permission);
    setPermission(answer);
    return answer;
  };
  return { permission, ask };
}

/** What the tab's choice says after it was used, in words. */
export function tabNotificationText(permission: TabPermission): string | null {
  if (permission === 'granted') return 'This tab now tells you of new questions while it is hidden.';
  if (permission === 'denied') return 'Notifications are blocked for this site: allow them in the browser’s site settings, then try again.';
  if (permission === 'unavailable')
    return 'Notifications need a secure address: open askdock over https (or on localhost).';
  return null;
}
