import { createReadStream, existsSync, realpathSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, resolve, sep } from 'node:path';
import { hostAllowed, hostRefusal, originAllowed, originRefusal, securityHeaders, type ReachPolicy } from './http-security.ts';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.txt': 'text/plain; charset=utf-8',
  '.wasm': 'application/wasm',
};

export function contentType(file: string): string {
  return TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
}

export const PLACEHOLDER_HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>askdock</title></head>
<body><main><h1>askdock gateway</h1>
<p>The Control UI is not built yet. Run <code>npm run build</code>, then reload this page.</p>
<p>The gateway itself is running: agents and clients connect to <code>/ws</code>.</p></main></body></html>
`;

function send(res: ServerResponse, status: number, type: string, body: string, head: boolean): void {
  res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body), 'cache-control': 'no-store' });
  res.end(head ? undefined : body);
}

/** The file under `root` for a URL path, or null: never anything outside root, also through `..`, encodings or symlinks. */
export function resolveStatic(root: string, urlPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0')) return null;
  const base = resolve(root);
  const target = resolve(base, '.' + (decoded.startsWith('/') ? decoded : '/' + decoded));
  if (target !== base && !target.startsWith(base + sep)) return null;
  try {
    if (!statSync(target).isFile()) return null;
    const real = realpathSync(target);
    const realBase = realpathSync(base);
    return real.startsWith(realBase + sep) ? real : null;
  } catch {
    return null;
  }
}

const OPEN: ReachPolicy = { loopback: false, allowedHosts: [], allowedOrigins: [] };

/** GET /healthz, then the built UI with an index.html fallback for client routes (`/s/…`, `/q/…`). */
export function createHttpHandler(uiDir: string, reach: ReachPolicy = OPEN, routes?: (req: IncomingMessage, res: ServerResponse) => boolean) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    const head = req.method === 'HEAD';
    // S2 on every answer, errors included.
    for (const [name, value] of Object.entries(securityHeaders(req.headers.host))) res.setHeader(name, value as string);
    if (!hostAllowed(reach, req.headers.host, req.socket.localPort ?? 0))
      return send(res, 421, 'text/plain; charset=utf-8', `${hostRefusal(reach, req.headers.host, req.socket.localPort ?? 0)}\n`, head);
    if (routes?.(req, res)) return;
    if (req.method !== 'GET' && !head) {
      res.setHeader('allow', 'GET, HEAD');
      return send(res, 405, 'text/plain; charset=utf-8', 'method not allowed\n', head);
    }
    const path = (req.url ?? '/').split('?')[0].split('#')[0] || '/';
    if (path === '/healthz') return send(res, 200, 'application/json; charset=utf-8', '{"ok":true}', head);
    // A page whose socket keeps failing asks why (a browser never sees the status of a refused upgrade): the S1 verdict
    // for the origin it names, as the upgrade would give it; 426 when the socket would be let in.
    if (path === '/ws') {
      const origin = new URLSearchParams((req.url ?? '').split('?')[1] ?? '').get('origin') ?? req.headers.origin;
      if (!originAllowed(reach, origin, req.headers.host)) return send(res, 403, 'text/plain; charset=utf-8', `${originRefusal(origin, req.headers.host)}\n`, head);
      return send(res, 426, 'text/plain; charset=utf-8', 'upgrade required: open a WebSocket here\n', head);
    }
    const file = path === '/' ? null : resolveStatic(uiDir, path);
    if (file) {
      const size = statSync(file).size;
      const immutable = path.startsWith('/assets/');
      res.writeHead(200, {
        'content-type': contentType(file),
        'content-length': size,
        'cache-control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
        // U17: the service worker controls the whole app; the browser checks it for a new build on every visit (no-cache).
        ...(path === '/sw.js' ? { 'service-worker-allowed': '/' } : {}),
      });
      if (head) return void res.end();
      createReadStream(file).on('error', () => res.destroy()).pipe(res);
      return;
    }
    // A path with a file extension that is not there is a missing asset, not a client route.
    const clientRoute = path === '/' || path.startsWith('/s/') || path.startsWith('/q/');
    if (!clientRoute && extname(path) !== '') return send(res, 404, 'text/plain; charset=utf-8', 'not found\n', head);
    const index = join(uiDir, 'index.html');
    if (!existsSync(index)) return send(res, 200, 'text/html; charset=utf-8', PLACEHOLDER_HTML, head);
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache' });
    if (head) return void res.end();
    createReadStream(index).on('error', () => res.destroy()).pipe(res);
  };
}
