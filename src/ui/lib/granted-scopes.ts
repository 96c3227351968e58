import type { Scope } from '../../protocol/index.ts';

const KEY = 'askdock.scopes';

/**
 * The scopes the gateway's last hello granted this tab's sign-in (A5), kept for the tab (sessionStorage) so that a
 * reload, online or not, shows what this sign-in may do before the next hello says it again.
 */
export function rememberedScopes(): Scope[] | undefined {
  try {
    const kept = globalThis.sessionStorage?.getItem(KEY);
    return kept ? (JSON.parse(kept) as Scope[]) : undefined;
  } catch {
    return undefined;
  }
}

export function rememberScopes(scopes: readonly Scope[]): void {
  globalThis.sessionStorage?.setItem(KEY, JSON.stringify(scopes));
}

/** Another token (or none): what the last one held says nothing about it. */
export function forgetScopes(): void {
  globalThis.sessionStorage?.removeItem(KEY);
}
