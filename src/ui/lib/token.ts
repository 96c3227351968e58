import { forgetScopes } from './granted-scopes.ts';

const KEY = 'askdock.token';

/**
 * The token for this tab: from the address (`#token=`, which never reaches a server or a Referer; or `?token=`, read once
 * and then removed from the address bar), else this tab's sessionStorage, else the one this browser remembers. A token
 * from the address is remembered for the browser, so a question link opened in a new tab is not asked for it again;
 * Sign out forgets it (docs/security.md).
 */
export function takeToken(): string | null {
  const url = new URL(window.location.href);
  const fragment = new URLSearchParams(url.hash.replace(/^#/, ''));
  const fromUrl = fragment.get('token') || url.searchParams.get('token');
  if (fromUrl) {
    keepToken(fromUrl);
    fragment.delete('token');
    url.searchParams.delete('token');
    const hash = fragment.toString();
    window.history.replaceState(window.history.state, '', url.pathname + url.search + (hash ? `#${hash}` : ''));
    return fromUrl;
  }
  return sessionStorage.getItem(KEY) ?? localStorage.getItem(KEY);
}

/** Sign out, or a refused token: this tab and the browser forget it. */
export function forgetToken() {
  forgetScopes(sessionStorage.getItem(KEY) ?? localStorage.getItem(KEY));
  sessionStorage.removeItem(KEY);
  localStorage.removeItem(KEY);
  // U17: the service worker holds the token while device notifications are on: signing out takes it from there too.
  if (typeof navigator !== 'undefined') navigator.serviceWorker?.controller?.postMessage({ type: 'token', token: null });
}

/** A signed-in token: remembered for this browser, unless the person unticked "Remember me" (then this tab only). */
export function keepToken(token: string, remember = true) {
  // The scopes saved for another token stay bound to it (granted-scopes.ts): this one shows none until its own hello.
  sessionStorage.setItem(KEY, token);
  if (remember) localStorage.setItem(KEY, token);
  else localStorage.removeItem(KEY);
}
