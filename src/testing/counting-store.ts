import type { Store, StoredQuestion } from '../gateway/store/types.ts';

const READS: readonly PropertyKey[] = ['getQuestion', 'listQuestions', 'dueQuestions', 'dueRoutes'];

/**
 * The store, counting the question records its reads hand back: what the gateway examined (E2's duty, the bench).
 * `reads`: the methods counted, each row it returns one (e.g. with `pendingTallies`, the rows a session count reads).
 */
export function countingStore(store: Store, reads: readonly PropertyKey[] = READS): { store: Store; examined: () => number; reset: () => void } {
  let n = 0;
  const wrapped = new Proxy(store, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver) as unknown;
      if (!reads.includes(key) || typeof value !== 'function') return value;
      return async (...args: unknown[]) => {
        const out = (await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args)) as StoredQuestion | StoredQuestion[] | undefined;
        n += Array.isArray(out) ? out.length : out ? 1 : 0;
        return out;
      };
    },
  });
  return { store: wrapped, examined: () => n, reset: () => void (n = 0) };
}

/** `count - 1` copies of a routed question beside it, each waiting until `nextAtMs(i)`: many pending without a round trip each. */
export async function addRoutedCopies(store: Store, asked: StoredQuestion, count: number, nextAtMs: (i: number) => number): Promise<string[]> {
  const ids: string[] = [];
  await store.transaction(async () => {
    for (let i = 1; i < count; i++) {
      const id = `${asked.id}-copy-${i}`;
      await store.insertQuestion({ ...asked, id, route: { ...asked.route!, nextAtMs: nextAtMs(i) } });
      ids.push(id);
    }
  });
  return ids;
}
