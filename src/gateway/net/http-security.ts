import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { isIP } from 'node:net';
import type { Duplex } from 'node:stream';

/** Who may reach the gateway over HTTP and WebSocket (S1, S3). */
export type ReachPolicy = {
  /** Set when the gateway listens on a loopback address: only loopback Host names (and `allowedHosts`) are answered (S3). */
  loopback: boolean;
  /** Extra `Host` names (with or without port) the gateway answers to, e.g. `askdock.team.example`. */
  allowedHosts: readonly string[];
  /** Browser origins, besides the gateway's own, allowed to open `/ws` (e.g. `https://tools.team.example`). */
  allowedOrigins: readonly string[];
};

/** `::ffff:10.0.0.1` (an IPv4 peer on a dual-stack socket) is `10.0.0.1`. */
function plainAddress(address: string): string {
  const bare = address.trim().replace(/^\[|\]$/g, '').toLowerCase();
  return bare.startsWith('::ffff:') && isIP(bare.slice(7)) === 4 ? bare.slice(7) : bare;
}

/** A forwarded entry as nginx and others write it: an address, maybe with a port (`1.2.3.4:5678`, `[::1]:5678`). */
function forwardedAddress(entry: string): string {
  const e = entry.trim();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(e);
  if (bracketed) return plainAddress(bracketed[1]);
  const v4port = /^(\d{1,3}(?:\.\d{1,3}){3}):\d+$/.exec(e);
  return plainAddress(v4port ? v4port[1] : e).slice(0, 64);
}

/**
 * S4: the address a connection is counted under. A peer that is one of `trustedProxies` forwarded it: the client is
 * the right-most `X-Forwarded-For` entry that is not a trusted proxy itself (entries left of it may be forged by the
 * client). Any other peer is the client; its header, which it may have written itself, is ignored.
 */
export function clientAddress(peer: string | undefined, forwardedFor: string | string[] | undefined, trustedProxies: ReadonlySet<string>): string {
  const direct = peer ? plainAddress(peer) : 'unknown';
  if (!trustedProxies.has(direct) || forwardedFor === undefined) return direct;
  const entries = (Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor).split(',').map(forwardedAddress).filter(Boolean);
  for (let i = entries.length - 1; i >= 0; i--) if (!trustedProxies.has(entries[i])) return entries[i];
  return entries[0] ?? direct;
}

/** The config's `trustedProxies` as clientAddress compares them. */
export const trustedProxySet = (addresses: readonly string[] | undefined): ReadonlySet<string> => new Set((addresses ?? []).map(plainAddress));

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/** 127.0.0.0/8, ::1 and `localhost` are loopback; `0.0.0.0` and `::` listen everywhere and are not. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (bare === 'localhost' || bare === '::1') return true;
  return isIP(bare) === 4 && bare.startsWith('127.');
}

/** Splits a Host header value into a lower-case name and an optional port; null when it is not a host at all. */
export function parseHostHeader(value: string | undefined): { name: string; port: string | null } | null {
  if (!value) return null;
  const m = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+)(?::(\d{1,5}))?$/.exec(value.trim());
  if (!m) return null;
  return { name: m[1].toLowerCase(), port: m[2] ?? null };
}

/**
 * S3: a loopback gateway answers only Hosts naming loopback with its own port, or listed in `allowedHosts`; any other
 * gateway with an `allowedHosts` list answers those and loopback.
 * A page on `evil.example` that rebinds its name to 127.0.0.1 still sends `Host: evil.example`.
 */
export function hostAllowed(policy: ReachPolicy, hostHeader: string | undefined, port: number): boolean {
  const host = parseHostHeader(hostHeader);
  if (!host) return false;
  const listed = policy.allowedHosts.some((h) => {
    const allowed = parseHostHeader(h);
    return allowed !== null && allowed.name === host.name && (allowed.port === null || allowed.port === host.port);
  });
  if (listed) return true;
  // Listening on every address with no list: any Host (the operator chose to be reachable by any name).
  if (!policy.loopback && policy.allowedHosts.length === 0) return true;
  const portOk = host.port === null ? port === 80 : Number(host.port) === port;
  return portOk && (LOOPBACK_NAMES.has(host.name) || (isIP(host.name) === 4 && host.name.startsWith('127.')));
}

/**
 * S1: no Origin means a non-browser client (Node, the CLI), which no web page can be. A browser is let in from the
 * gateway's own origin (the one whose host is the request's Host, over http or https behind a TLS proxy) or a listed one.
 */
export function originAllowed(policy: ReachPolicy, origin: string | undefined, hostHeader: string | undefined): boolean {
  if (origin === undefined) return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (url.origin === 'null') return false;
  if (policy.allowedOrigins.some((o) => o === '*' || normaliseOrigin(o) === url.origin)) return true;
  const host = parseHostHeader(hostHeader);
  if (!host || (url.protocol !== 'http:' && url.protocol !== 'https:')) return false;
  return url.host.toLowerCase() === (host.port === null ? host.name : `${host.name}:${host.port}`);
}

/** How a proxy loses the port: nginx's `$host` is the name alone, `$http_host` the header as the browser sent it. */
const PORT_HINT = 'a proxy that sets `Host $host` drops the port: pass `proxy_set_header Host $http_host`';

/**
 * The body of a 421 (S3): names the real cause when the Host differs from an allowed one only by its port, the usual
 * result of a proxy that rewrites Host without the port.
 */
export function hostRefusal(policy: ReachPolicy, hostHeader: string | undefined, port: number): string {
  const base = 'misdirected request: this gateway does not answer to that Host';
  const host = parseHostHeader(hostHeader);
  if (!host) return `${base} (${hostHeader ? `${JSON.stringify(hostHeader)} is not a host name` : 'no Host header'})`;
  const sameName = policy.allowedHosts.map(parseHostHeader).filter((h) => h !== null && h.name === host.name);
  const shown = host.port === null ? host.name : `${host.name}:${host.port}`;
  if (sameName.length > 0) {
    const listed = sameName.map((h) => (h!.port === null ? h!.name : `${h!.name}:${h!.port}`)).join(', ');
    return `${base}: Host ${JSON.stringify(shown)} differs from allowedHosts ${JSON.stringify(listed)} only by the port (${PORT_HINT}, or list the name without a port)`;
  }
  if (LOOPBACK_NAMES.has(host.name) || (isIP(host.name) === 4 && host.name.startsWith('127.')))
    return `${base}: Host ${JSON.stringify(shown)} names loopback but not this gateway's port ${port} (${PORT_HINT})`;
  return `${base}: ${JSON.stringify(shown)} is not in allowedHosts`;
}

/** The body of a 403 (S1): names the real cause when the Origin's host differs from the Host only by its port. */
export function originRefusal(origin: string | undefined, hostHeader: string | undefined): string {
  const base = 'forbidden: this origin may not open the gateway socket; list it in allowedOrigins';
  const host = parseHostHeader(hostHeader);
  let url: URL | null = null;
  try {
    url = origin ? new URL(origin) : null;
  } catch {
    url = null;
  }
  if (!host || !url || url.hostname.toLowerCase() !== host.name) return base;
  const shown = host.port === null ? host.name : `${host.name}:${host.port}`;
  return `${base}: origin ${JSON.stringify(url.origin)} differs from the Host ${JSON.stringify(shown)} only by the port (${PORT_HINT})`;
}

function normaliseOrigin(origin: string): string {
  try {
    return new URL(origin).origin;
  } catch {
    return origin;
  }
}

/**
 * S2: sent with every HTTP answer. The UI's scripts and styles come from the gateway itself; its one socket goes to the
 * gateway's own `/ws` (named explicitly: `'self'` did not cover ws: in every browser).
 */
export function securityHeaders(hostHeader: string | undefined): OutgoingHttpHeaders {
  const host = parseHostHeader(hostHeader);
  const self = host ? (host.port === null ? host.name : `${host.name}:${host.port}`) : null;
  const connect = ["'self'", ...(self ? [`ws://${self}`, `wss://${self}`] : [])].join(' ');
  const csp = [
    "default-src 'self'",
    "script-src 'self'",
    // Radix and React set some styles inline; styles cannot run code.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src ${connect}`,
    "frame-ancestors 'none'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
  ].join('; ');
  return {
    'content-security-policy': csp,
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
    'x-content-type-options': 'nosniff',
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
  };
}

const STATUS_TEXT = {
  400: 'Bad Request',
  408: 'Request Timeout',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  421: 'Misdirected Request',
  431: 'Request Header Fields Too Large',
} as const;

/**
 * A raw HTTP answer for a request refused before any WebSocket frame (an upgrade refused here or by `ws`, a request
 * Node could not parse), with the S2 headers too. `req` is absent when the request could not be read.
 */
export function rawRefusal(status: keyof typeof STATUS_TEXT, req: IncomingMessage | undefined, why: string, extra: Record<string, string> = {}): string {
  const text = STATUS_TEXT[status];
  const body = `${why}\n`;
  const headers = {
    ...securityHeaders(req?.headers.host),
    ...extra,
    'content-type': 'text/plain; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    connection: 'close',
  };
  const lines = Object.entries(headers).map(([k, v]) => `${k}: ${String(v)}`);
  return `HTTP/1.1 ${status} ${text}\r\n${lines.join('\r\n')}\r\n\r\n${body}`;
}

/**
 * Writes a raw refusal and destroys the socket once it is flushed: an HTTP server's sockets stay half open, so a
 * client that never closes its side would otherwise keep the refused socket for good.
 */
export function endRaw(socket: Duplex, text: string): void {
  if (!socket.writable) return void socket.destroy();
  socket.end(text, () => socket.destroy());
}

/**
 * What Node could not read as a request (the server's `clientError`): 408 for a request that took too long, 431 for
 * headers too large, else 400, each with the S2 headers. A socket already answering (headers of a response sent) or
 * no longer writable is only destroyed: a second status line in the middle of a response would corrupt it.
 */
export function answerClientError(err: NodeJS.ErrnoException, socket: Duplex): void {
  const answering = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage;
  if (err.code === 'ECONNRESET' || !socket.writable || answering?.headersSent) return void socket.destroy();
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') return endRaw(socket, rawRefusal(408, undefined, 'request timeout: the request did not arrive in time'));
  if (err.code === 'HPE_HEADER_OVERFLOW') return endRaw(socket, rawRefusal(431, undefined, 'request headers too large'));
  endRaw(socket, rawRefusal(400, undefined, 'bad request'));
}
