import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { GatewayConfig } from '../gateway/config.ts';
import { spawnGateway, type GatewayChild } from './gateway-child.ts';

/** A port free right now; the gateway keeps it across restarts so clients (and a page's origin) stay the same. */
export function freePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, host, () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * `askdock gateway` as a child process on one port and one SQLite file, for fault tests: SIGKILL and start again,
 * or freeze it (SIGSTOP) so every socket goes silent without closing.
 */
export class RestartableGateway {
  child: GatewayChild | null = null;
  private frozen = false;

  private constructor(
    readonly port: number,
    readonly dir: string,
    private readonly removeDir: boolean,
    private readonly db?: string,
  ) {}

  /**
   * Writes `config` beside a fresh database in a temp dir (outside test-results/) and starts the gateway. `db`: a
   * `postgres://` URL instead of the SQLite file; gateways given the same `dir` and `db` share config and secrets key.
   */
  static async start(config: GatewayConfig, opts: { dir?: string; db?: string } = {}): Promise<RestartableGateway> {
    const dir = opts.dir ?? mkdtempSync(join(tmpdir(), 'askdock-chaos-'));
    writeFileSync(join(dir, 'config.json'), JSON.stringify(config, null, 2));
    const gateway = new RestartableGateway(await freePort(), dir, opts.dir === undefined, opts.db);
    await gateway.start();
    return gateway;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get dbPath(): string {
    return join(this.dir, 'askdock.db');
  }

  get running(): boolean {
    return this.child !== null;
  }

  async start(): Promise<void> {
    if (this.child) return;
    const args = ['--host', '127.0.0.1', '--port', String(this.port), '--db', this.db ?? this.dbPath, '--config', join(this.dir, 'config.json')];
    // A busy machine can take a while to start node with tsx; a port still held by a dying child is retried.
    for (let attempt = 0; ; attempt++) {
      try {
        this.child = await spawnGateway(args, 60_000);
        this.frozen = false;
        return;
      } catch (err) {
        if (attempt >= 4 || !/already in use/.test(String(err))) throw err;
        await new Promise((r) => setTimeout(r, 250));
      }
    }
  }

  /** SIGKILL: no shutdown, no flush beyond what the database already committed (R3). */
  async kill(): Promise<void> {
    const child = this.child;
    if (!child) return;
    this.child = null;
    child.proc.kill('SIGKILL');
    await child.exit;
  }

  async restart(): Promise<void> {
    await this.kill();
    await this.start();
  }

  /** SIGSTOP: connections stay open but nothing answers, not even ticks (P6). */
  freeze(): void {
    if (!this.child || this.frozen) return;
    this.child.proc.kill('SIGSTOP');
    this.frozen = true;
  }

  thaw(): void {
    if (!this.child || !this.frozen) return;
    this.child.proc.kill('SIGCONT');
    this.frozen = false;
  }

  async close(): Promise<void> {
    this.thaw();
    await this.kill();
    if (this.removeDir) rmSync(this.dir, { recursive: true, force: true });
  }
}
