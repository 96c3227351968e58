// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Listeners } from '../../lib/listeners.ts';
import { rememberedScopes, rememberScopes } from './granted-scopes.ts';
import { forgetToken, keepToken, takeToken } from './token.ts';

const X = 'adk_token-x-admin-0123456789abcdef';
const Y = 'adk_token-y-questions-0123456789ab';
const go = (path: string) => window.history.replaceState(null, '', path);

/** Runs `step` as another tab of this browser would: with a sessionStorage of its own, sharing localStorage. */
function inAnotherTab(step: () => void) {
  const own = Object.entries(sessionStorage);
  sessionStorage.clear();
  step();
  sessionStorage.clear();
  for (const [key, value] of own) sessionStorage.setItem(key, value);
}

afterEach(() => {
  vi.restoreAllMocks();
  sessionStorage.clear();
  localStorage.clear();
  go('/');
});

describe('what a hello granted, kept for the token it came with (A5)', () => {
  it('[A5] a new tab of the same sign-in (empty sessionStorage) knows its scopes before its own hello', () => {
    keepToken(X);
    rememberScopes(X, ['operator.admin']);
    sessionStorage.clear(); // a new tab, or one opened while the gateway is down
    expect(takeToken()).toBe(X);
    expect(rememberedScopes(X)).toEqual(['operator.admin']);
  });

  it("[A5] a tab that reloads onto another token (signed in elsewhere with ?token=) does not show the last token's controls", () => {
    // Tab A took X from the browser (nothing in its sessionStorage) and its hello granted operator.admin.
    keepToken(X);
    sessionStorage.clear();
    expect(takeToken()).toBe(X);
    rememberScopes(X, ['operator.admin']);
    // Tab B opens /?token=Y: the browser now remembers Y.
    inAnotherTab(() => {
      go(`/?token=${Y}`);
      expect(takeToken()).toBe(Y);
    });
    // Tab A reloads (its sessionStorage kept): it runs as Y, and nothing says what Y may do until Y's hello.
    go('/');
    expect(takeToken()).toBe(Y);
    expect(rememberedScopes(Y)).toBeUndefined();
    // A tab still signed in as X reloads with X's scopes.
    expect(rememberedScopes(X)).toEqual(['operator.admin']);
  });

  it('[A5] two sign-ins in one browser (two tabs, two tokens) keep both grants: either tab reloads offline with its own', () => {
    rememberScopes(X, ['operator.admin']);
    rememberScopes(Y, ['operator.questions']);
    // Y's tab reconnects (its hello again): X's grant stays.
    rememberScopes(Y, ['operator.questions']);
    expect([rememberedScopes(X), rememberedScopes(Y)]).toEqual([['operator.admin'], ['operator.questions']]);
    // The last few sign-ins only: four newer tokens push X's out.
    for (const t of ['t1', 't2', 't3', 't4']) rememberScopes(`adk_${t}-0123456789abcdef`, ['operator.read']);
    expect(rememberedScopes(X)).toBeUndefined();
  });

  it('[A5] a token typed at sign-in shows nothing saved for the one before it', () => {
    keepToken(X);
    rememberScopes(X, ['operator.admin']);
    keepToken(Y);
    expect(rememberedScopes(Y)).toBeUndefined();
  });

  it("[A5] Sign out, or a refused token, forgets that token's grant; another sign-in's in this browser stays", () => {
    keepToken(X);
    rememberScopes(X, ['operator.admin']);
    forgetToken();
    expect(rememberedScopes(X)).toBeUndefined();
    expect(localStorage.getItem('askdock.scopes')).toBeNull();
    // Tab A signed in as X, tab B as Y: A signs out; B reloads offline with Y's grant.
    rememberScopes(Y, ['operator.questions']);
    keepToken(X);
    rememberScopes(X, ['operator.admin']);
    forgetToken();
    expect([rememberedScopes(X), rememberedScopes(Y)]).toEqual([undefined, ['operator.questions']]);
  });

  it('[A5][S4] what is saved names no token: only a short fingerprint of it', () => {
    rememberScopes(X, ['operator.admin']);
    const saved = localStorage.getItem('askdock.scopes')!;
    expect(saved).not.toContain(X);
    expect(JSON.parse(saved)).toEqual([{ token: expect.stringMatching(/^[0-9a-f]{8}$/), scopes: ['operator.admin'] }]);
  });

  it("[A5] storage that refuses the write: the hello's other listeners (pending sends, chunk retries) still run", () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    vi.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    });
    const hello = new Listeners<[readonly ['operator.admin']]>();
    const after = vi.fn();
    hello.add((scopes) => rememberScopes(X, scopes));
    hello.add(after);
    hello.emit(['operator.admin']);
    expect(after).toHaveBeenCalledOnce();
    expect(rememberedScopes(X)).toBeUndefined();
  });
});
