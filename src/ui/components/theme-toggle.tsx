import type { JSX } from 'react';
import { useTheme, type ThemeChoice } from '../lib/theme.ts';
import { MoonIcon, SunIcon, SystemIcon } from './ui/icons.tsx';

const LABEL: Record<ThemeChoice, string> = { system: 'System', light: 'Light', dark: 'Dark' };
const ICON = { system: SystemIcon, light: SunIcon, dark: MoonIcon } satisfies Record<ThemeChoice, () => JSX.Element>;

/** One quiet button in the top bar: System → Light → Dark. */
export function ThemeToggle() {
  const choice = useTheme((s) => s.choice);
  const themeCycled = useTheme((s) => s.themeCycled);
  const Glyph = ICON[choice];
  return (
    <button
      type="button"
      className="btn btn-ghost btn-icon"
      aria-label={`Theme: ${LABEL[choice]}`}
      title={`Theme: ${LABEL[choice]} (click to change)`}
      onClick={themeCycled}
    >
      <Glyph />
    </button>
  );
}
