import { create } from 'zustand';

/** The person's colour theme: `system` follows `prefers-color-scheme`; the others pin `<html data-theme>`. */
export type ThemeChoice = 'system' | 'light' | 'dark';
const KEY = 'askdock.theme';
const ORDER: ThemeChoice[] = ['system', 'light', 'dark'];

function stored(): ThemeChoice {
  try {
    const value = localStorage.getItem(KEY);
    return value === 'light' || value === 'dark' ? value : 'system';
  } catch {
    return 'system';
  }
}

function apply(choice: ThemeChoice) {
  const root = document.documentElement;
  if (choice === 'system') delete root.dataset.theme;
  else root.dataset.theme = choice;
}

type ThemeState = { choice: ThemeChoice; themeChosen: (choice: ThemeChoice) => void };

/** The choices in the order the menu offers them. */
export const THEME_CHOICES: readonly ThemeChoice[] = ORDER;

export const useTheme = create<ThemeState>((set) => ({
  choice: stored(),
  themeChosen: (choice) => {
    try {
      if (choice === 'system') localStorage.removeItem(KEY);
      else localStorage.setItem(KEY, choice);
    } catch {
      // Private mode: the choice lasts for this page only.
    }
    apply(choice);
    set({ choice });
  },
}));

/** Called once before the first render, so a pinned theme never flashes the other one. */
export function applyStoredTheme() {
  apply(stored());
}
