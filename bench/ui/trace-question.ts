/**
 * What a new question costs the browser from its frame at the page's socket to the frame after the dock's commit
 * (printed, not asserted):  node --import tsx bench/ui/trace-question.ts [questions=30] [trace.json]
 * Each question is asked, shown, then resolved by a Node operator, on an idle page, under a Chromium trace; the page
 * marks the socket's arrival and the painted frame (user timing), and the trace's events inside each window are summed
 * per thread and name (nested events count in their own name too), as wall time and as thread time: the second is what
 * the work cost, and moves little with what else the machine runs. `TRACE_JS=1` adds the JS sampler's category
 * (for the functions behind the time; build with `npx vite build --minify false` for readable names).
 */
import { writeFileSync } from 'node:fs';
import { summarize } from '../lib/stats.ts';
import { jsSamples, printJs } from './js-samples.ts';
import { newBenchContext, openSession } from './page-tools.ts';
import { markArrivals, tracedRounds } from './traced-round.ts';
import { withTraceRig } from './trace-rig.ts';

const count = Number(process.argv[2] ?? 30);

type TraceEvent = { ph: string; name: string; ts: number; dur?: number; tdur?: number; pid: number; tid: number; args?: { name?: string } };

await withTraceRig(async (rig) => {
  const { gateway, browser, sessionKey } = rig;
  const context = await newBenchContext(browser);
  await context.addInitScript(markArrivals);
  const page = await openSession(context, gateway, sessionKey);
  const round = await tracedRounds(page, rig);
  for (let n = 0; n < 5; n++) await round(n);
  await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink.user_timing', 'toplevel', 'cc', 'viz', ...(process.env.TRACE_JS ? ['disabled-by-default-v8.cpu_profiler'] : [])] });
  for (let n = 5; n < 5 + count; n++) await round(n);
  const trace = await browser.stopTracing();
  if (process.argv[3]) writeFileSync(process.argv[3], trace);
  const events = JSON.parse(trace.toString()).traceEvents as TraceEvent[];
  const threads = new Map(events.filter((e) => e.ph === 'M' && e.name === 'thread_name').map((e) => [`${e.pid}:${e.tid}`, e.args?.name ?? '?']));
  const marks = new Map(events.filter((e) => /^(arrive|painted)-\d+$/.test(e.name)).map((e) => [e.name, e.ts]));
  const windows: [number, number][] = [];
  for (let n = 5; n < 5 + count; n++) {
    const [a, p] = [marks.get(`arrive-${n}`), marks.get(`painted-${n}`)];
    if (a !== undefined && p !== undefined) windows.push([a, p]);
  }
  const took = summarize(windows.map(([a, p]) => (p - a) / 1000));
  console.log(`${windows.length} questions; socket -> painted p50 / p95 ${took.p50} / ${took.p95} ms`);
  // The main thread's own work before the dock is painted: its top-level tasks' thread time inside each window.
  const mainThread = [...threads].find(([, name]) => name === 'CrRendererMain')?.[0];
  const tasks = events.filter((e) => e.ph === 'X' && e.name === 'RunTask' && `${e.pid}:${e.tid}` === mainThread);
  const busy = summarize(windows.map(([a, p]) => tasks.filter((e) => e.ts < p && e.ts + (e.dur ?? 0) > a).reduce((sum, e) => sum + (e.tdur ?? e.dur ?? 0), 0) / 1000));
  console.log(`main thread's task time inside a window (thread time) p50 / p95 ${busy.p50} / ${busy.p95} ms`);
  const sums = new Map<string, { wall: number; cpu: number }>();
  for (const e of events) {
    if (e.ph !== 'X' || !e.dur) continue;
    const w = windows.find(([a, p]) => e.ts >= a && e.ts < p);
    if (!w) continue;
    const key = `${threads.get(`${e.pid}:${e.tid}`) ?? e.tid} ${e.name}`;
    // Thread time where the trace has it (what the work cost, whatever else the machine ran), else wall time.
    const share = Math.min(1, (w[1] - e.ts) / e.dur);
    const s = sums.get(key) ?? { wall: 0, cpu: 0 };
    s.wall += e.dur * share;
    s.cpu += (e.tdur ?? e.dur) * share;
    sums.set(key, s);
  }
  console.log('   wall ms    cpu ms  per question, thread and event');
  for (const [key, s] of [...sums].sort((a, b) => b[1].cpu - a[1].cpu).slice(0, 40))
    console.log(`${(s.wall / 1000 / windows.length).toFixed(2).padStart(8)}  ${(s.cpu / 1000 / windows.length).toFixed(2).padStart(8)}  ${key}`);
  if (process.env.TRACE_JS) printJs(jsSamples(events as unknown as Parameters<typeof jsSamples>[0], windows), windows.length);
});
