import { afterEach } from 'vitest';
import { openPostgresStore } from '../gateway/store/postgres/store.ts';
import type { SharedStore } from '../gateway/store/postgres/cluster.ts';
import { freshSchema, type TestSchema } from './postgres.ts';

/** For the tests of the calling file: `open` gives a store on a fresh schema (and its URL), closed and dropped after the test. */
export function postgresStorePerTest(): { open(prefix: string): Promise<{ store: SharedStore; url: string }> } {
  let schema: TestSchema | undefined;
  let store: SharedStore | undefined;
  afterEach(async () => {
    await store?.close();
    await schema?.drop();
    store = schema = undefined;
  });
  return {
    async open(prefix) {
      schema = await freshSchema(prefix);
      store = await openPostgresStore(schema.url);
      return { store, url: schema.url };
    },
  };
}
