import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

/** Where Debian's postgresql package puts its server binaries; `ASKDOCK_PG_BIN` points elsewhere. */
export const PG_BIN = process.env.ASKDOCK_PG_BIN ?? '/usr/lib/postgresql/15/bin';

/** `pid`: the server's postmaster process (its backends are its children), for a bench that reads their CPU time. */
/**
 * `url` reaches the server over loopback TCP; `socketUrl` through its Unix socket (the socket directory as the URL's
 * host, as docs/deploy.md tells a gateway on the database's machine to connect).
 */
export type TestPostgres = { url: string; socketUrl: string; pid: number; stop(): void };

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/** initdb and pg_ctl refuse to run as root: as root, they run as the `postgres` user the Debian package creates. */
function runAs(): { prefix: string[]; uid?: number; gid?: number } {
  if (process.getuid?.() !== 0) return { prefix: [] };
  const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
  const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
  return { prefix: ['runuser', '-u', 'postgres', '--'], uid, gid };
}

function run(prefix: string[], cmd: string, args: string[]): void {
  const full = [...prefix, join(PG_BIN, cmd), ...args];
  const r = spawnSync(full[0], full.slice(1), { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (r.status !== 0) throw new Error(`${cmd} failed (${r.status ?? r.signal}): ${r.stderr || r.stdout || r.error?.message}`);
}

/**
 * A throwaway PostgreSQL server for tests: a fresh cluster in a temp dir, on a free loopback port, with its unix socket
 * in that dir too. `stop()` shuts it down and removes the dir. It holds test data only, and tests kill gateways, never
 * this server, so it skips fsync (`fsync: true` keeps it, as a real deployment does: the scale-out bench).
 */
export async function startThrowawayPostgres(opts: { fsync?: boolean } = {}): Promise<TestPostgres> {
  if (!existsSync(join(PG_BIN, 'initdb')))
    throw new Error(`no PostgreSQL server binaries in ${PG_BIN}: install them (apt-get install -y postgresql) or set ASKDOCK_TEST_POSTGRES_URL`);
  const { prefix, uid, gid } = runAs();
  const dir = mkdtempSync(join(tmpdir(), 'askdock-pg-'));
  const data = join(dir, 'data');
  const socketDir = join(dir, 'socket');
  mkdirSync(socketDir);
  if (uid !== undefined && gid !== undefined) {
    chownSync(dir, uid, gid);
    chownSync(socketDir, uid, gid);
  }
  chmodSync(dir, 0o700);
  let started = false;
  const stop = () => {
    if (started) {
      started = false;
      try {
        run(prefix, 'pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } catch {
        // already gone
      }
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    run(prefix, 'initdb', ['-D', data, '-U', 'askdock', '--auth=trust', '-E', 'UTF8', '--no-sync', '--no-instructions']);
    const port = await freePort();
    const options = `-p ${port} -c listen_addresses=127.0.0.1 -k ${socketDir} -c fsync=${opts.fsync ? 'on' : 'off'} -c max_connections=200 -c shared_buffers=32MB`;
    run(prefix, 'pg_ctl', ['-D', data, '-l', join(dir, 'server.log'), '-o', options, '-w', '-t', '60', 'start']);
    started = true;
    const admin = new pg.Client({ connectionString: `postgres://askdock@127.0.0.1:${port}/postgres` });
    await admin.connect();
    await admin.query('CREATE DATABASE askdock_test');
    await admin.end();
    const pid = Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
    return { url: `postgres://askdock@127.0.0.1:${port}/askdock_test`, socketUrl: `postgres://askdock@${encodeURIComponent(socketDir)}:${port}/askdock_test`, pid, stop };
  } catch (err) {
    const log = join(dir, 'server.log');
    const tail = existsSync(log) ? `\n${readFileSync(log, 'utf8').slice(-2000)}` : '';
    stop();
    throw new Error(`starting a throwaway PostgreSQL failed: ${(err as Error).message}${tail}`);
  }
}
