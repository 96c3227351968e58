import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a fake platform received, body already decoded (JSON or form; form values that hold JSON are parsed). */
export type FakeCall = { method: string; path: string; body: Record<string, unknown>; headers: IncomingMessage['headers'] };

/** A scripted failure for the next `times` calls of one API method. */
export type FakeFailure = { status: number; retryAfterS?: number; times: number };

function decode(req: IncomingMessage, raw: string): Record<string, unknown> {
  if (!raw) return {};
  const type = String(req.headers['content-type'] ?? '');
  if (type.includes('application/x-www-form-urlencoded')) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of new URLSearchParams(raw)) {
      try {
        out[k] = /^[[{]/.test(v) ? JSON.parse(v) : v;
      } catch {
        out[k] = v;
      }
    }
    return out;
  }
  try {
    return JSON.parse(raw) as Record<string, unknown>;
  } catch {
    return { raw };
  }
}

export type FakeHandler = (call: FakeCall, res: ServerResponse, req: IncomingMessage) => void;

/** A loopback HTTP server standing in for a platform's API; every call is recorded in order. */
export class FakeHttp {
  readonly calls: FakeCall[] = [];
  private readonly failures = new Map<string, FakeFailure>();
  private server: Server | null = null;
  port = 0;

  constructor(
    private readonly methodOf: (path: string, httpMethod: string) => string,
    private readonly handler: FakeHandler,
    private readonly failureBody: (f: FakeFailure) => { headers: Record<string, string>; body: unknown },
  ) {}

  async listen(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const path = (req.url ?? '').split('?')[0];
        const call = { method: this.methodOf(path, req.method ?? 'GET'), path, body: decode(req, Buffer.concat(chunks).toString('utf8')), headers: req.headers };
        const failure = this.failures.get(call.method);
        if (failure && failure.times > 0) {
          failure.times--;
          this.calls.push(call);
          const out = this.failureBody(failure);
          return json(res, failure.status, out.body, out.headers);
        }
        this.calls.push(call);
        this.handler(call, res, req);
      });
    });
    await new Promise<void>((ok) => this.server!.listen(0, '127.0.0.1', ok));
    this.port = (this.server.address() as AddressInfo).port;
  }

  get origin(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** The next `times` calls of `method` fail with `status` (429 with `retryAfterS`, 500 for an outage). */
  fail(method: string, failure: FakeFailure): void {
    this.failures.set(method, { ...failure });
  }

  callsOf(method: string): FakeCall[] {
    return this.calls.filter((c) => c.method === method);
  }

  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = null;
    server.closeAllConnections();
    await new Promise<void>((done) => server.close(() => done()));
  }
}

export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers }).end(text);
}

/** Polls until `fn` returns something truthy; the limit is generous because the machine may be busy. */
export async function until<T>(fn: () => T | undefined | null | false | Promise<T | undefined | null | false>, what: string, timeoutMs = 20_000): Promise<T> {
  const start = Date.now();
  for (;;) {
    const got = await fn();
    if (got) return got;
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 15));
  }
}

/** The content of the first Markdown code block (```) in `text`, as Slack and Discord show it (X2). */
export function fencedCode(text: string): string | undefined {
  return /```\n([\s\S]*?)\n```/.exec(text)?.[1];
}
