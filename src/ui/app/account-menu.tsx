import { DropdownMenu } from 'radix-ui';
import { Button } from '../components/ui/button.tsx';
import { PersonIcon } from '../components/ui/icons.tsx';
import { forgetToken } from '../lib/token.ts';
import '../features/push/push.css';

/** Forgets the token in this tab and this browser, then starts over at the sign-in form. */
function signOut() {
  forgetToken();
  window.location.reload();
}

/**
 * The sign-in is remembered for this browser by default (so a question link opens in a new tab without the token);
 * this menu of the top bar is the way out: Sign out forgets it everywhere in the browser (docs/security.md).
 */
export function AccountMenu() {
  return (
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger asChild>
        <Button variant="ghost" size="sm" className="btn-icon" aria-label="Account" title="Account: sign out">
          <PersonIcon />
        </Button>
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content className="menu" align="end" sideOffset={6} collisionPadding={8}>
          <DropdownMenu.Label className="menu-label">Signed in on this browser</DropdownMenu.Label>
          <DropdownMenu.Item className="menu-item" onSelect={signOut}>
            <span className="menu-item-text">
              <span>Sign out</span>
              <span className="menu-item-hint">This tab and new ones ask for the token again</span>
            </span>
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
