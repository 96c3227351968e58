import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { GatewayConfig } from '../../src/gateway/config.ts';
import { RestartableGateway } from '../../src/testing/restartable-gateway.ts';
import { openRunSchema } from '../lib/postgres-schema.ts';

/**
 * The gateways a soak runs against: one on a SQLite file (the default), or `count` on one PostgreSQL database (D2),
 * each its own `askdock gateway` process on its own port, all with one config and one secrets key.
 */
export class Fleet {
  private constructor(
    readonly gateways: RestartableGateway[],
    readonly where: string,
    private readonly cleanup: () => Promise<void>,
  ) {}

  /** `db`: a `postgres://` URL, used in a fresh schema of its own (dropped at the end); without it and with count > 1, a throwaway server. */
  static async start(config: GatewayConfig, count: number, db: string | undefined, say: (line: string) => void): Promise<Fleet> {
    if (count === 1 && db === undefined) {
      const gateway = await RestartableGateway.start(config);
      return new Fleet([gateway], 'SQLite', () => gateway.close());
    }
    if (db === undefined) say('starting a throwaway PostgreSQL');
    const schema = await openRunSchema(db, 'askdock_soak');
    const dir = mkdtempSync(join(tmpdir(), 'askdock-soak-'));
    const gateways: RestartableGateway[] = [];
    const cleanup = async () => {
      await Promise.all(gateways.map((g) => g.close()));
      rmSync(dir, { recursive: true, force: true });
      await schema.drop().catch((err: Error) => say(`dropping the soak's schema failed: ${err.message}`));
    };
    try {
      // One after the other: the first creates the tables, the others find them.
      for (let i = 0; i < count; i++) gateways.push(await RestartableGateway.start(config, { dir, db: schema.url }));
    } catch (err) {
      await cleanup();
      throw err;
    }
    return new Fleet(gateways, schema.where, cleanup);
  }

  get running(): boolean {
    return this.gateways.some((g) => g.running);
  }

  /** Every gateway's URL, starting with gateway `index % count`, so clients spread over the gateways and move on in turn (D4). */
  urlsFrom(index: number): string[] {
    const n = this.gateways.length;
    return Array.from({ length: n }, (_, i) => this.gateways[(index + i) % n].url);
  }

  close(): Promise<void> {
    return this.cleanup();
  }
}
