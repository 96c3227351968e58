import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, vi } from 'vitest';
import { startTestGateway, testConfig, type TestGateway } from './gateway-harness.ts';
import { freshSchema, type TestSchema } from './postgres.ts';
import type { GatewayConfig } from '../gateway/config.ts';
import { SecretWaiters } from '../gateway/secrets/secret-waiters.ts';

// Two gateways in ONE process on one database: each keeps its turn's transaction open across callbacks while the
// thread waits on every statement, so without taking turns the second one's write waits for a lock the first can
// never release (until PostgreSQL's lock timeout fails it).

const config: GatewayConfig = {
  identities: testConfig.identities.map((i) => (i.id === 'agent' ? { ...i, scopes: ['agent.run', 'agent.secrets'] } : i)),
};

/**
 * Gives each test of the calling file a fresh schema and key folder, and closes the gateways it started: `one` and
 * `two` start gateways on that schema sharing one secrets key file; `schemaUrl` is the schema's connection string.
 */
export function inProcessGateways() {
  let schema: TestSchema;
  let keyDir: string;
  const running: TestGateway[] = [];

  beforeEach(async () => {
    schema = await freshSchema('inproc');
    keyDir = mkdtempSync(join(tmpdir(), 'askdock-inproc-key-'));
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    for (const g of running.splice(0)) await g.close();
    await schema.drop();
    rmSync(keyDir, { recursive: true, force: true });
  });

  const one = async (): Promise<TestGateway> => {
    const g = await startTestGateway({ dbPath: schema.url, config, secretKeyFile: join(keyDir, 'secrets.key') });
    running.push(g);
    return g;
  };
  const two = async (): Promise<[TestGateway, TestGateway]> => [await one(), await one()];
  return { one, two, schemaUrl: () => schema.url };
}

/** Lets the store's `method` read as usual but hands each answer back only once the returned release is called. */
export function holdReads(store: object, method: 'getQuestion' | 'getSecretRequest'): () => void {
  const reads = store as Record<typeof method, (id: string) => Promise<unknown>>;
  const read = reads[method].bind(store);
  let release!: () => void;
  const gate = new Promise<void>((ok) => (release = ok));
  reads[method] = async (id) => {
    const answer = await read(id);
    await gate;
    return answer;
  };
  return release;
}

/** Settles once a wait for secret request `id` is set on a gateway of this process: from then on only a heard outcome ends it. */
export function secretWaitSet(id: string): Promise<void> {
  const wait = SecretWaiters.prototype.wait;
  return new Promise((ok) => {
    vi.spyOn(SecretWaiters.prototype, 'wait').mockImplementation(function (this: SecretWaiters, r, timeoutMs, cancellation) {
      const answer = wait.call(this, r, timeoutMs, cancellation);
      if (r.id === id && answer instanceof Promise) ok();
      return answer;
    });
  });
}
