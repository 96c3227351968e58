import { AskdockError } from '../protocol/askdock-error.ts';

/** D4: the gateway URLs of `url` in order, a list or a comma-separated string; blanks are dropped. */
export function gatewayUrls(url: string | readonly string[]): string[] {
  const list = (typeof url === 'string' ? url.split(',') : [...url]).map((u) => u.trim()).filter((u) => u !== '');
  if (list.length === 0) throw new AskdockError('INVALID_REQUEST', 'url: give at least one gateway URL', { details: [{ path: 'url', problem: 'is empty' }] });
  return list;
}

export function toSocketUrl(url: string): string {
  const u = new URL(url);
  if (u.protocol === 'http:') u.protocol = 'ws:';
  if (u.protocol === 'https:') u.protocol = 'wss:';
  if (u.pathname === '/' || u.pathname === '') u.pathname = '/ws';
  u.search = '';
  return u.toString();
}

/** The address of a question's own page in the Control UI the gateway at `url` serves (`/q/<id>`, PRODUCT U11). */
export function questionPageUrl(url: string | readonly string[], id: string): string {
  const first = typeof url === 'string' ? url.split(',')[0] : (url[0] ?? '');
  const u = new URL(first.trim());
  if (u.protocol === 'ws:') u.protocol = 'http:';
  if (u.protocol === 'wss:') u.protocol = 'https:';
  u.pathname = `/q/${encodeURIComponent(id)}`;
  u.search = '';
  u.hash = '';
  return u.toString();
}
