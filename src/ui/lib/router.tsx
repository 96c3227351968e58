import { useSyncExternalStore, type AnchorHTMLAttributes, type MouseEvent } from 'react';
import { Listeners } from '../../lib/listeners.ts';
import { INBOX_PATH } from './inbox.ts';

/** The pages of the Control UI, read from the address. */
export type Route =
  | { name: 'home' }
  | { name: 'inbox' }
  | { name: 'rules' }
  | { name: 'on-call' }
  | { name: 'session'; sessionKey: string }
  | { name: 'question'; id: string }
  | { name: 'not-found'; path: string };

const listeners = new Listeners();
const notify = () => listeners.emit();

function subscribe(listener: () => void): () => void {
  if (listeners.size === 0) window.addEventListener('popstate', notify);
  const off = listeners.add(listener);
  return () => {
    off();
    if (listeners.size === 0) window.removeEventListener('popstate', notify);
  };
}

/** G12: the approval policy's rules and grants (admins). */
export const RULES_PATH = '/rules';

/** E9: each schedule's person now and next, and the open routed questions. */
export const ON_CALL_PATH = '/on-call';

export function sessionPath(sessionKey: string): string {
  return `/s/${encodeURIComponent(sessionKey)}`;
}

export function questionPath(id: string): string {
  return `/q/${encodeURIComponent(id)}`;
}

function decode(part: string): string | null {
  try {
    return decodeURIComponent(part);
  } catch {
    return null;
  }
}

export function parseRoute(pathname: string): Route {
  if (pathname === '/' || pathname === '') return { name: 'home' };
  if (pathname === INBOX_PATH || pathname === `${INBOX_PATH}/`) return { name: 'inbox' };
  if (pathname === RULES_PATH || pathname === `${RULES_PATH}/`) return { name: 'rules' };
  if (pathname === ON_CALL_PATH || pathname === `${ON_CALL_PATH}/`) return { name: 'on-call' };
  const match = /^\/(s|q)\/([^/]+)\/?$/.exec(pathname);
  const value = match ? decode(match[2]) : null;
  if (match && value) return match[1] === 's' ? { name: 'session', sessionKey: value } : { name: 'question', id: value };
  return { name: 'not-found', path: pathname };
}

/** Changes the address without a page load; `replace` keeps Back from returning to a redirect. */
export function navigate(to: string, options: { replace?: boolean } = {}) {
  const target = new URL(to, window.location.href);
  const current = window.location.pathname + window.location.search + window.location.hash;
  const next = target.pathname + target.search + target.hash;
  if (next === current) return;
  if (options.replace) window.history.replaceState(null, '', next);
  else window.history.pushState(null, '', next);
  notify();
}

export function usePathname(): string {
  return useSyncExternalStore(subscribe, () => window.location.pathname);
}

export function useRoute(): Route {
  return parseRoute(usePathname());
}

type LinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> & { to: string };

/** A real `<a href>` (middle click, copy link and new tab keep working) that navigates in place on a plain click. */
export function Link({ to, onClick, ...rest }: LinkProps) {
  const handleClick = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (event.defaultPrevented || event.button !== 0) return;
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    if (rest.target && rest.target !== '_self') return;
    event.preventDefault();
    navigate(to);
  };
  return <a href={to} onClick={handleClick} {...rest} />;
}
