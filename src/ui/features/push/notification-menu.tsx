import { useState } from 'react';
import { DropdownMenu } from 'radix-ui';
import { Button } from '../../components/ui/button.tsx';
import { BellIcon, CheckIcon } from '../../components/ui/icons.tsx';
import { VisuallyHidden } from '../../components/ui/visually-hidden.tsx';
import { HeaderNote } from './header-note.tsx';
import { useDevicePush } from './notify-on-device.tsx';
import { tabNotificationText, useTabNotifications } from './tab-notifications.ts';
import './push.css';

/**
 * U13 and U17 in one labelled menu of the top bar: "Notify me in this tab" (while it is hidden) and "Notify me on this
 * device" (Web Push, also with askdock closed). Each says what it did, or why it could not, in a note under the bar.
 */
export function NotificationMenu() {
  const [note, setNote] = useState<string | null>(null);
  const [open, setOpen] = useState(false);
  // The outcome closes the menu, so its note under the bar is in sight (focus goes back to the bell).
  const report = (text: string | null) => {
    setNote(text);
    setOpen(false);
  };
  const tab = useTabNotifications();
  const device = useDevicePush(report);
  const busy = device.state === 'busy';
  const tabOn = tab.permission === 'granted';
  const deviceOn = device.state === 'on';
  const anyOn = tabOn || deviceOn;

  return (
    <>
      {/* Not modal: the status line and the bar stay readable while it turns on. */}
      <DropdownMenu.Root modal={false} open={open} onOpenChange={setOpen}>
        <DropdownMenu.Trigger asChild>
          <Button
            variant="ghost"
            size="sm"
            className="btn-icon notification-trigger"
            aria-label="Notifications"
            title="Notifications: in this tab, or on this device"
            aria-busy={busy || undefined}
            data-on={anyOn || undefined}
          >
            <BellIcon />
            {busy && <span className="notification-spinner" aria-hidden="true" />}
          </Button>
        </DropdownMenu.Trigger>
        <DropdownMenu.Portal>
          <DropdownMenu.Content className="menu notification-menu" align="end" sideOffset={6} collisionPadding={8}>
            <DropdownMenu.Label className="menu-label">Tell me about new questions</DropdownMenu.Label>
            <DropdownMenu.CheckboxItem
              className="menu-item"
              checked={tabOn}
              onSelect={(e) => {
                // Open until the browser answers; then the note says what it did.
                e.preventDefault();
                void tab.ask().then((p) => report(tabNotificationText(p)));
              }}
            >
              <MenuCheck />
              <span className="menu-item-text">
                <span>Notify me in this tab</span>
                <span className="menu-item-hint">While the tab is hidden</span>
              </span>
            </DropdownMenu.CheckboxItem>
            {device.mayPush && (
              <DropdownMenu.CheckboxItem
                className="menu-item"
                checked={deviceOn}
                aria-busy={busy || undefined}
                onSelect={(e) => {
                  // Open while it turns on ("Turning on…"); then the note says what happened.
                  e.preventDefault();
                  void device.toggle();
                }}
              >
                <MenuCheck />
                <span className="menu-item-text">
                  <span>Notify me on this device</span>
                  <span className="menu-item-hint">{busy ? 'Turning on…' : 'Also while askdock is closed'}</span>
                </span>
              </DropdownMenu.CheckboxItem>
            )}
          </DropdownMenu.Content>
        </DropdownMenu.Portal>
      </DropdownMenu.Root>
      <VisuallyHidden>
        <span role="status">{busy ? 'Turning on notifications on this device…' : ''}</span>
      </VisuallyHidden>
      {note && <HeaderNote text={note} onDismiss={() => setNote(null)} />}
    </>
  );
}

function MenuCheck() {
  return (
    <span className="menu-check" aria-hidden="true">
      <DropdownMenu.ItemIndicator>
        <CheckIcon />
      </DropdownMenu.ItemIndicator>
    </span>
  );
}
