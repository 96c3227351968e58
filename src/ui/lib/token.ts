const KEY = 'askdock.token';

/**
 * The token for this tab: from the address (`#token=`, which never reaches a server or a Referer; or `?token=`, read once
 * and then removed from the address bar), else this tab's sessionStorage, else one the person chose to remember.
 */
export function takeToken(): string | null {
  const url = new URL(window.location.href);
  const fragment = new URLSearchParams(url.hash.replace(/^#/, ''));
  const fromUrl = fragment.get('token') || url.searchParams.get('token');
  if (fromUrl) {
    sessionStorage.setItem(KEY, fromUrl);
    fragment.delete('token');
    url.searchParams.delete('token');
    const hash = fragment.toString();
    window.history.replaceState(window.history.state, '', url.pathname + url.search + (hash ? `#${hash}` : ''));
    return fromUrl;
  }
  return sessionStorage.getItem(KEY) ?? localStorage.getItem(KEY);
}

export function forgetToken() {
  sessionStorage.removeItem(KEY);
  localStorage.removeItem(KEY);
  // U17: the service worker holds the token while device notifications are on: signing out takes it from there too.
  if (typeof navigator !== 'undefined') navigator.serviceWorker?.controller?.postMessage({ type: 'token', token: null });
}

/** A token typed into the sign-in form: for this tab only, unless the person ticked "Remember me". */
export function keepToken(token: string, remember = false) {
  sessionStorage.setItem(KEY, token);
  if (remember) localStorage.setItem(KEY, token);
  else localStorage.removeItem(KEY);
}
