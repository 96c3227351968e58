import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { createOutboxStorage } from '../lib/outbox/storage.ts';
import { OUTBOX_DB_NAME } from '../lib/outbox/db-name.ts';
import type { OutboxRow } from '../lib/outbox/machine.ts';
import { emptyOutbox } from './sign-out.ts';

const row = (id: string): OutboxRow => ({
  id,
  idempotencyKey: `outbox-${id}-key`,
  sessionKey: 's1',
  questionId: `q-${id}`,
  text: '> Deploy\nProduction',
  state: 'queued',
  createdAtMs: 1,
  updatedAtMs: 1,
  attempts: 0,
});

describe('Sign out (S4, U10)', () => {
  it('[S4] empties the outbox: an unsent answer left by one person is not sent as the next one who signs in here', async () => {
    const indexedDB = new IDBFactory();
    const before = createOutboxStorage({ indexedDB });
    await before.put(row('a'));
    await before.put(row('b'));
    before.close();
    await emptyOutbox(indexedDB);
    const after = createOutboxStorage({ indexedDB });
    expect(await after.all()).toEqual([]);
    // The outbox still works for the next person.
    await after.put(row('c'));
    expect((await after.all()).map((r) => r.id)).toEqual(['c']);
    after.close();
  });

  it('[S4] makes no outbox database in a browser that never had one, and settles without IndexedDB at all', async () => {
    const indexedDB = new IDBFactory();
    await emptyOutbox(indexedDB);
    expect((await indexedDB.databases()).map((d) => d.name)).not.toContain(OUTBOX_DB_NAME);
    await expect(emptyOutbox(undefined)).resolves.toBeUndefined();
  });
});
