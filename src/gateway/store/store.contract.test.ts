import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { freshSchema } from '../../testing/postgres.ts';
import { auditContract } from './contract/audit-contract.ts';
import type { Harness } from './contract/contract-fixtures.ts';
import { eventsContract } from './contract/events-contract.ts';
import { grantsContract } from './contract/grants-contract.ts';
import { idempotencyContract } from './contract/idempotency-contract.ts';
import { isolationContract } from './contract/isolation-contract.ts';
import { createMemoryStore } from './memory.ts';
import { messagesContract } from './contract/messages-contract.ts';
import { metaContract } from './contract/meta-contract.ts';
import { openPostgresStore } from './postgres/store.ts';
import { postgresOnServerContract } from './contract/postgres-server-contract.ts';
import { pushContract } from './contract/push-contract.ts';
import { questionsContract } from './contract/questions-contract.ts';
import { runsContract } from './contract/runs-contract.ts';
import { searchContract } from './contract/search-contract.ts';
import { secretsContract } from './contract/secrets-contract.ts';
import { sessionsContract } from './contract/sessions-contract.ts';
import { sqliteOnDiskContract } from './contract/sqlite-disk-contract.ts';
import { openSqliteStore } from './sqlite.ts';
import { transactionsContract } from './contract/transactions-contract.ts';
import type { Store } from './types.ts';

// The engines, each opened here once per test; the contract itself lives in the *-contract.ts modules beside this file.

function memoryHarness(): Harness {
  return { open: createMemoryStore, cleanup: () => {} };
}

function sqliteHarness(): Harness & { file: string } {
  const dir = mkdtempSync(join(tmpdir(), 'askdock-store-'));
  const file = join(dir, 'gateway.db');
  return { file, open: () => openSqliteStore(file), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** As the gateway opens it: the file held, so the store keeps what it last wrote and read (known-records.ts). */
function heldSqliteHarness(): Harness {
  const dir = mkdtempSync(join(tmpdir(), 'askdock-store-'));
  const file = join(dir, 'gateway.db');
  return { open: () => openSqliteStore(file, { exclusive: true }), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

async function postgresHarness(): Promise<Harness & { url: string }> {
  const schema = await freshSchema('contract');
  return { url: schema.url, open: () => openPostgresStore(schema.url), cleanup: () => schema.drop() };
}

function storeContract(name: string, makeHarness: () => Harness | Promise<Harness>): void {
  describe(`${name} store`, () => {
    let harness: Harness;
    let store: Store;
    beforeEach(async () => {
      harness = await makeHarness();
      store = await harness.open();
    });
    afterEach(async () => {
      await store.close();
      await harness.cleanup();
    });

    sessionsContract(() => store);
    messagesContract(() => store);
    idempotencyContract(() => store);
    questionsContract(() => store);
    runsContract(() => store);
    eventsContract(() => store);
    secretsContract(() => store);
    grantsContract(() => store);
    auditContract(() => store);
    searchContract(() => store);
    pushContract(() => store);
    metaContract(() => store);
    transactionsContract(() => store);
    isolationContract(() => store);

    it('refuses calls once closed', async () => {
      await store.close();
      await expect(async () => await store.getMeta('k')).rejects.toThrow();
      await expect(async () => await store.setMeta('k', 'v')).rejects.toThrow();
    });
  });
}

storeContract('memory', memoryHarness);
storeContract('sqlite', sqliteHarness);
storeContract('sqlite, held', heldSqliteHarness);
storeContract('postgres', postgresHarness);

sqliteOnDiskContract(sqliteHarness);
postgresOnServerContract(postgresHarness);
