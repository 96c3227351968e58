import { AskdockError } from '../../protocol/index.ts';
import { update } from './sync.ts';
import type { Flash, TuiStore } from './tui-store.ts';

/** An error as the person reads it on the flash line: what went wrong, then its code. */
export const errorText = (err: unknown) => (err instanceof AskdockError ? `${err.message} (${err.code})` : err instanceof Error ? err.message : String(err));

/** The one line above the composer that says what just happened. */
export const flash = (store: TuiStore, text: string, tone: Flash['tone'] = 'info') => update(store, () => ({ flash: { text, tone } }));
