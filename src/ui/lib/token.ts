const KEY = 'askdock.token';

/** Takes `?token=` from the address once, keeps it for the tab, and removes it from the address bar. */
export function takeToken(): string | null {
  const url = new URL(window.location.href);
  const fromUrl = url.searchParams.get('token');
  if (fromUrl) {
    sessionStorage.setItem(KEY, fromUrl);
    localStorage.setItem(KEY, fromUrl);
    url.searchParams.delete('token');
    window.history.replaceState(window.history.state, '', url.pathname + url.search + url.hash);
    return fromUrl;
  }
  return sessionStorage.getItem(KEY) ?? localStorage.getItem(KEY);
}

export function forgetToken() {
  sessionStorage.removeItem(KEY);
  localStorage.removeItem(KEY);
}

/** Keeps a token typed into the sign-in form, as one from the address would be. */
export function keepToken(token: string) {
  sessionStorage.setItem(KEY, token);
  localStorage.setItem(KEY, token);
}
