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

/** The last few sign-ins' grants, newest first, by fingerprint: two tabs signed in with two tokens keep both. */
const KEPT = 4;
type Grant = { token: string; scopes: Scope[] };

function grants(): Grant[] {
  try {
    const kept = globalThis.localStorage?.getItem(KEY);
    const saved: unknown = kept ? JSON.parse(kept) : [];
    return Array.isArray(saved) ? saved.filter((g): g is Grant => typeof g?.token === 'string' && Array.isArray(g.scopes)) : [];
  } catch {
    return [];
  }
}

/**
 * The scopes the gateway's last hello on this browser granted `token` (A5), so that a reload or a new tab of that
 * sign-in, online or not, shows what it may do before the next hello says it again. Undefined when no hello on this
 * browser was for that token (among the last few sign-ins').
 */
export function rememberedScopes(token: string): Scope[] | undefined {
  const print = tokenFingerprint(token);
  return grants().find((g) => g.token === print)?.scopes;
}

/**
 * Saves what a hello granted `token`. Runs among the hello's listeners: storage that is full or refused only loses
 * the head start on the next reload, never the listeners after this one (pending sends, chunk retries).
 */
export function rememberScopes(token: string, scopes: readonly Scope[]): void {
  try {
    const print = tokenFingerprint(token);
    const rest = grants().filter((g) => g.token !== print);
    globalThis.localStorage?.setItem(KEY, JSON.stringify([{ token: print, scopes }, ...rest].slice(0, KEPT)));
  } catch (err) {
    console.warn('Could not save what this sign-in may do for the next reload', err);
  }
}

/** Signed out, or the token was refused: its grant is forgotten; another sign-in's in this browser stays. */
export function forgetScopes(token: string | null): void {
  if (token === null) return;
  try {
    const print = tokenFingerprint(token);
    const rest = grants().filter((g) => g.token !== print);
    if (rest.length) globalThis.localStorage?.setItem(KEY, JSON.stringify(rest));
    else globalThis.localStorage?.removeItem(KEY);
  } catch {
    // Storage refused: the grant, if any, stays bound to a token this browser no longer holds.
  }
}
