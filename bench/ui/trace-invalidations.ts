/**
 * Why the browser restyles, lays out and repaints in a question's arrival (printed, not asserted):
 *   node --import tsx bench/ui/trace-invalidations.ts [questions=10]
 * Traces the arrival windows (the question's frame at the socket to the painted mark, as trace-question.ts) with
 * Chromium's invalidation tracking and prints, per question, each invalidation's kind, node and reason, and the Paint
 * events by the layer's node with their thread time.
 */
import { newBenchContext, openSession } from './page-tools.ts';
import { markArrivals, tracedRounds } from './traced-round.ts';
import { withTraceRig } from './trace-rig.ts';

const count = Number(process.argv[2] ?? 10);
type Data = { nodeName?: string; reason?: string; invalidationSet?: unknown; frame?: string };
type TraceEvent = { ph: string; name: string; ts: number; dur?: number; tdur?: number; args?: { data?: Data } };

await withTraceRig(async (rig) => {
  const context = await newBenchContext(rig.browser);
  await context.addInitScript(markArrivals);
  const page = await openSession(context, rig.gateway, rig.sessionKey);
  const round = await tracedRounds(page, rig);
  const warm = Number(process.env.WARM ?? 5);
  for (let n = 0; n < warm; n++) await round(n);
  await rig.browser.startTracing(page, {
    categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'disabled-by-default-devtools.timeline.invalidationTracking', 'disabled-by-default-blink.invalidation', 'blink.user_timing'],
  });
  for (let n = warm; n < warm + count; n++) await round(n);
  const raw = (await rig.browser.stopTracing()).toString();
  if (process.env.SAVE) (await import("node:fs")).writeFileSync(process.env.SAVE, raw);
  const events = JSON.parse(raw).traceEvents as TraceEvent[];
  const marks = new Map(events.filter((e) => /^(arrive|painted)-\d+$/.test(e.name)).map((e) => [e.name, e.ts]));
  const tally = new Map<string, number>();
  for (let n = warm; n < warm + count; n++) {
    const [a, p] = [marks.get(`arrive-${n}`), marks.get(`painted-${n}`)];
    if (a === undefined || p === undefined) continue;
    for (const e of events) {
      if (e.ts < a || e.ts >= p) continue;
      const d = e.args?.data;
      if (/InvalidationTracking$/.test(e.name)) {
        const key = `${e.name.replace('InvalidationTracking', '')} ${d?.nodeName ?? '?'}: ${d?.reason ?? (d?.invalidationSet ? 'set' : '?')}`;
        tally.set(key, (tally.get(key) ?? 0) + 1);
      } else if (e.name === 'Paint' && e.ph === 'X') {
        const key = `Paint ${d?.nodeName ?? '?'} (ms thread time)`;
        tally.set(key, (tally.get(key) ?? 0) + (e.tdur ?? e.dur ?? 0) / 1000);
      }
    }
  }
  for (const [key, v] of [...tally].sort((x, y) => y[1] - x[1])) console.log(`${(v / count).toFixed(2).padStart(8)}  ${key}`);
});
