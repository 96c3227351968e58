import type { Entry } from './memory-journal.ts';
import { copyJson } from './shape.ts';
import { routeDeadline, type RouteStoreMethods } from './route-rows.ts';
import type { StoredQuestion } from './types.ts';

type Due = { at: number; id: string };

/**
 * E2/E11 in memory: a min-heap of step deadlines. An entry is checked against the question it names when it comes to
 * the top and dropped once stale (answered, or its deadline moved), so a change only adds one; a rolled-back change
 * adds back the deadline it replaced.
 */
export function memoryRouteIndex(questions: Map<string, Entry<StoredQuestion>>, undoable: (undo: () => void) => void) {
  let heap: Due[] = [];
  const before = (a: Due, b: Due) => a.at < b.at || (a.at === b.at && a.id < b.id);
  const swap = (i: number, j: number) => ([heap[i], heap[j]] = [heap[j], heap[i]]);
  function push(at: number | undefined, id: string): void {
    if (at === undefined) return;
    heap.push({ at, id });
    for (let i = heap.length - 1; i > 0 && before(heap[i], heap[(i - 1) >> 1]); i = (i - 1) >> 1) swap(i, (i - 1) >> 1);
  }
  function pop(): void {
    const last = heap.pop() as Due;
    if (heap.length === 0) return;
    heap[0] = last;
    for (let i = 0; ; ) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < heap.length && before(heap[l], heap[m])) m = l;
      if (r < heap.length && before(heap[r], heap[m])) m = r;
      if (m === i) return;
      swap(i, m);
      i = m;
    }
  }
  const live = (d: Due) => routeDeadline(questions.get(d.id)?.value) === d.at;
  /** Drops stale entries from the top; rebuilds when stale ones make up most of the heap. */
  function settle(): void {
    while (heap.length > 0 && !live(heap[0])) pop();
    if (heap.length > 2 * questions.size + 64) {
      const old = heap;
      heap = [];
      for (const d of old) if (live(d)) push(d.at, d.id);
    }
  }
  const methods: RouteStoreMethods = {
    dueRoutes(nowMs, limit) {
      settle();
      // Walks the heap's due part without taking anything out: an entry stays until its question changes.
      const out = new Map<string, StoredQuestion>();
      const open = heap.length > 0 ? [0] : [];
      while (open.length > 0) {
        const i = open.pop() as number;
        const d = heap[i];
        if (d.at > nowMs) continue;
        if (live(d)) out.set(d.id, questions.get(d.id)!.value);
        open.push(...[2 * i + 1, 2 * i + 2].filter((c) => c < heap.length));
      }
      return [...out.values()]
        .sort((a, b) => (a.route!.nextAtMs as number) - (b.route!.nextAtMs as number) || (questions.get(a.id)!.n - questions.get(b.id)!.n))
        .slice(0, limit)
        .map(copyJson);
    },
    nextRouteMs() {
      settle();
      return heap.length > 0 ? heap[0].at : null;
    },
  };
  return {
    methods,
    /** Before `q` is inserted or replaces the stored one: its deadline indexed, the old one back on rollback. */
    note(q: StoredQuestion): void {
      const old = routeDeadline(questions.get(q.id)?.value);
      push(routeDeadline(q), q.id);
      undoable(() => push(old, q.id));
    },
  };
}
