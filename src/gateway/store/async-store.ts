import type { Store, SyncStore } from './types.ts';

/**
 * A Store over a SyncStore: each method answers with a promise already settled, so SQLite and memory pay one microtask
 * per call and keep their speed. `keep` names methods that stay synchronous (e.g. SQLite's `settings`).
 */
export function asyncStore<S extends SyncStore, K extends Exclude<keyof S, keyof SyncStore> = never>(sync: S, keep: readonly K[] = []): Store & Pick<S, K> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(sync)) {
    const value = (sync as Record<string, unknown>)[key];
    if (typeof value !== 'function' || (keep as readonly string[]).includes(key)) {
      out[key] = value;
      continue;
    }
    const fn = value as (...args: unknown[]) => unknown;
    out[key] = (...args: unknown[]) => {
      try {
        return Promise.resolve(fn.apply(sync, args));
      } catch (err) {
        return Promise.reject(err);
      }
    };
  }
  out.transaction = async <T>(fn: () => Promise<T> | T): Promise<T> => {
    const unit = sync.openUnit();
    let result: T;
    try {
      result = await fn();
    } catch (err) {
      unit.rollback();
      throw err;
    }
    unit.release();
    return result;
  };
  delete out.openUnit;
  return out as unknown as Store & Pick<S, K>;
}
