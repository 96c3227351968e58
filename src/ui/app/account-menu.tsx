import { DropdownMenu } from 'radix-ui';
import { Button } from '../components/ui/button.tsx';
import { CheckIcon, PersonIcon } from '../components/ui/icons.tsx';
import { THEME_CHOICES, useTheme, type ThemeChoice } from '../lib/theme.ts';
import { signOut } from './sign-out.ts';
import '../features/push/push.css';

const THEME_LABEL: Record<ThemeChoice, string> = { system: 'System', light: 'Light', dark: 'Dark' };

/**
 * One menu at the end of the top bar: the colour theme, and Sign out. The sign-in is remembered for this browser by
 * default (so a question link opens in a new tab without the token); Sign out is the way out (docs/security.md).
 */
export function AccountMenu() {
  const choice = useTheme((s) => s.choice);
  const themeChosen = useTheme((s) => s.themeChosen);
  return (
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger asChild>
        <Button variant="ghost" size="sm" className="btn-icon" aria-label="Account" title="Theme and sign out">
          <PersonIcon />
        </Button>
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content className="menu" align="end" sideOffset={6} collisionPadding={8}>
          <DropdownMenu.Label className="menu-label">Theme</DropdownMenu.Label>
          <DropdownMenu.RadioGroup value={choice} onValueChange={(value) => themeChosen(value as ThemeChoice)}>
            {THEME_CHOICES.map((c) => (
              <DropdownMenu.RadioItem key={c} className="menu-item" value={c}>
                <span className="menu-check" aria-hidden="true">
                  <DropdownMenu.ItemIndicator>
                    <CheckIcon />
                  </DropdownMenu.ItemIndicator>
                </span>
                <span className="menu-item-text">{THEME_LABEL[c]}</span>
              </DropdownMenu.RadioItem>
            ))}
          </DropdownMenu.RadioGroup>
          <DropdownMenu.Separator className="menu-separator" />
          <DropdownMenu.Item className="menu-item" onSelect={() => void signOut()}>
            <span className="menu-check" aria-hidden="true" />
            <span className="menu-item-text">
              <span>Sign out</span>
              <span className="menu-item-hint">Forgets the token, drafts and unsent answers here</span>
            </span>
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
