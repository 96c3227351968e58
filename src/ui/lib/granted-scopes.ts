import type { Scope } from '../../protocol/index.ts';

const KEY = 'askdock.scopes';

/**
 * Which token a saved grant came with: FNV-1a (32 bits) of the token, enough to tell one sign-in's token from another's
 * and nothing that signs anyone in.
 */
export function tokenFingerprint(token: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < token.length; i++) {
    hash ^= token.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, '0');
}

/**
 * The scopes the gateway's last hello on this browser granted `token` (A5), so that a reload or a new tab of that
 * sign-in, online or not, shows what it may do before the next hello says it again. Undefined when the last hello was
 * for another token (another tab may have signed this browser in with one), or there was none.
 */
export function rememberedScopes(token: string): Scope[] | undefined {
  try {
    const kept = globalThis.localStorage?.getItem(KEY);
    const saved = kept ? (JSON.parse(kept) as { token?: unknown; scopes?: unknown }) : undefined;
    return saved?.token === tokenFingerprint(token) && Array.isArray(saved.scopes) ? (saved.scopes as Scope[]) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Saves what a hello granted `token`. Runs among the hello's listeners: storage that is full or refused only loses
 * the head start on the next reload, never the listeners after this one (pending sends, chunk retries).
 */
export function rememberScopes(token: string, scopes: readonly Scope[]): void {
  try {
    globalThis.localStorage?.setItem(KEY, JSON.stringify({ token: tokenFingerprint(token), scopes }));
  } catch (err) {
    console.warn('Could not save what this sign-in may do for the next reload', err);
  }
}

/** Signed out, or the token was refused: no saved grant is left for any token. */
export function forgetScopes(): void {
  try {
    globalThis.localStorage?.removeItem(KEY);
  } catch {
    // Storage refused: the grant, if any, stays bound to a token this browser no longer holds.
  }
}
