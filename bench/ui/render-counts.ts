/**
 * Which components render, and how often, for a question shown and then answered from Node (printed, not asserted):
 *   node --import tsx bench/ui/render-counts.ts [questions=20]
 * React's commits are read through the hook React DevTools use (present in production builds): a component counts
 * when React called it in that commit (mounted, or its function ran again), not when a memo or a bail-out skipped it.
 * Each question's commits fall in three parts: its arrival (frame at the socket to the dock's painted frame), the
 * rest of that arrival (put-off notifications), and its end (the `question.resolved` frame until the next question).
 * `COMMITS=1` prints the first counted question's commits one by one (when, and which components).
 */
import { newBenchContext, openSession, pageIdle } from './page-tools.ts';
import { markArrivals, tracedRounds } from './traced-round.ts';
import { withTraceRig } from './trace-rig.ts';

const count = Number(process.argv[2] ?? 20);

/** In the page before React loads: a DevTools hook that lists, per commit, the components React called. */
function countRenders() {
  type Fiber = { tag: number; type: unknown; flags: number; child: Fiber | null; sibling: Fiber | null; alternate: Fiber | null };
  const commits: { at: number; names: string[] }[] = [];
  const isComponent = (f: Fiber) => f.tag === 0 || f.tag === 1 || f.tag === 11 || f.tag === 15;
  const nameOf = (f: Fiber): string => {
    const t = f.type as { displayName?: string; name?: string; render?: { name?: string } } | null;
    return t?.displayName ?? t?.name ?? t?.render?.name ?? '(anonymous)';
  };
  const mounted = (f: Fiber, into: string[]) => {
    for (let c = f.child; c; c = c.sibling) {
      if (isComponent(c)) into.push(nameOf(c));
      mounted(c, into);
    }
  };
  // A child fiber whose children are the same objects as before was not entered this commit (DevTools' own test).
  const changed = (f: Fiber, into: string[]) => {
    for (let c = f.child; c; c = c.sibling) {
      const before = c.alternate;
      if (!before) {
        if (isComponent(c)) into.push(nameOf(c));
        mounted(c, into);
        continue;
      }
      if (isComponent(c) && (c.flags & 1) === 1) into.push(nameOf(c));
      if (c.child !== before.child) changed(c, into);
    }
  };
  (window as unknown as Record<string, unknown>).__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
    supportsFiber: true,
    renderers: new Map(),
    inject: () => 1,
    onScheduleFiberRoot() {},
    onCommitFiberUnmount() {},
    onPostCommitFiberRoot() {},
    checkDCE() {},
    onCommitFiberRoot(_id: number, root: { current: Fiber }) {
      const names: string[] = [];
      changed(root.current, names);
      commits.push({ at: performance.now(), names });
    },
  };
  (window as unknown as Record<string, unknown>).__commits = commits;
}

await withTraceRig(async (rig) => {
  const context = await newBenchContext(rig.browser);
  await context.addInitScript(countRenders);
  await context.addInitScript(markArrivals);
  const page = await openSession(context, rig.gateway, rig.sessionKey);
  const round = await tracedRounds(page, rig);
  for (let n = 0; n < 5 + count; n++) await round(n);
  await pageIdle(page);
  const { commits, marks } = await page.evaluate(() => ({
    commits: (window as unknown as { __commits: { at: number; names: string[] }[] }).__commits,
    marks: performance.getEntriesByType('mark').map((m) => ({ name: m.name, at: m.startTime })),
  }));
  const at = (name: string) => marks.find((m) => m.name === name)?.at;
  const resolved = marks.filter((m) => m.name === 'resolved').map((m) => m.at);
  const parts = { arrival: new Map<string, number>(), 'after the arrival frame': new Map<string, number>(), end: new Map<string, number>() };
  const commitsIn = { arrival: 0, 'after the arrival frame': 0, end: 0 };
  for (let n = 5; n < 5 + count; n++) {
    const [a, p, r, next] = [at(`arrive-${n}`), at(`painted-${n}`), resolved.find((t) => t > (at(`painted-${n}`) ?? Infinity)), at(`arrive-${n + 1}`) ?? Infinity];
    if (a === undefined || p === undefined || r === undefined) continue;
    for (const c of commits) {
      const part = c.at >= a && c.at < p ? 'arrival' : c.at >= p && c.at < r ? 'after the arrival frame' : c.at >= r && c.at < next ? 'end' : null;
      if (!part) continue;
      commitsIn[part]++;
      if (process.env.COMMITS && n === 5) console.log(`q5 ${part} commit at +${(c.at - a).toFixed(1)} ms: ${c.names.join(' ')}`);
      for (const name of c.names) parts[part].set(name, (parts[part].get(name) ?? 0) + 1);
    }
  }
  for (const [part, names] of Object.entries(parts)) {
    const total = [...names.values()].reduce((s, v) => s + v, 0);
    console.log(`${part}: ${(commitsIn[part as keyof typeof commitsIn] / count).toFixed(1)} commits, ${(total / count).toFixed(1)} component renders per question`);
    for (const [name, times] of [...names].sort((x, y) => y[1] - x[1]).slice(0, 25)) console.log(`${(times / count).toFixed(1).padStart(7)}  ${name}`);
  }
});
