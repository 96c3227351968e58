// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { forgetToken, keepToken, takeToken } from './token.ts';

const go = (path: string) => window.history.replaceState(null, '', path);

afterEach(() => {
  sessionStorage.clear();
  localStorage.clear();
  go('/');
});

describe('Control UI token (S4)', () => {
  it('[S4] takes the token from the #token= fragment, remembers it for the browser and strips it from the address', () => {
    go('/s/abc?x=1#token=tok-from-fragment-0123456789');
    expect(takeToken()).toBe('tok-from-fragment-0123456789');
    expect(window.location.pathname + window.location.search + window.location.hash).toBe('/s/abc?x=1');
    expect(sessionStorage.getItem('askdock.token')).toBe('tok-from-fragment-0123456789');
    expect(localStorage.getItem('askdock.token')).toBe('tok-from-fragment-0123456789');
  });

  it('[S4] ?token= still works once, then is removed from the address', () => {
    go('/?token=tok-from-query-0123456789ab');
    expect(takeToken()).toBe('tok-from-query-0123456789ab');
    expect(window.location.search).toBe('');
    // A reload of this tab finds it in sessionStorage, not in the address.
    expect(takeToken()).toBe('tok-from-query-0123456789ab');
  });

  it('[S4] a typed token is remembered for the browser unless "Remember me" is unticked; Sign out forgets it', () => {
    keepToken('typed-token-0123456789abcdef', false);
    expect(localStorage.getItem('askdock.token')).toBeNull();
    sessionStorage.clear();
    expect(takeToken()).toBeNull();
    keepToken('typed-token-0123456789abcdef');
    // A new tab has an empty sessionStorage: the browser's copy signs it in.
    sessionStorage.clear();
    expect(takeToken()).toBe('typed-token-0123456789abcdef');
    forgetToken();
    expect(takeToken()).toBeNull();
  });
});
