import { afterEach } from 'vitest';
import { openPostgresStore } from '../gateway/store/postgres/store.ts';
import type { SharedStore } from '../gateway/store/postgres/cluster.ts';
import { freshSchema, type TestSchema } from './postgres.ts';

export type PostgresPerTest = {
  /** The URL of the current test's schema, made fresh (named from `prefix`) on the test's first call. */
  schema(prefix: string): Promise<string>;
  /** A store on the current test's schema (see `schema`). */
  open(prefix: string): Promise<{ store: SharedStore; url: string }>;
};

/**
 * For the tests of the calling file: a fresh schema per test, and stores on it; after the test every store opened here is
 * closed and the schema dropped. Hooks the file adds later run before this cleanup (vitest runs after-hooks as a stack).
 */
export function postgresStorePerTest(): PostgresPerTest {
  let schema: TestSchema | undefined;
  const stores: SharedStore[] = [];
  afterEach(async () => {
    for (const store of stores.splice(0)) await store.close();
    await schema?.drop();
    schema = undefined;
  });
  const schemaUrl = async (prefix: string) => (schema ??= await freshSchema(prefix)).url;
  return {
    schema: schemaUrl,
    async open(prefix) {
      const url = await schemaUrl(prefix);
      const store = await openPostgresStore(url);
      stores.push(store);
      return { store, url };
    },
  };
}
