/**
 * What the slow questions did that the median ones did not, from a trace saved by trace-question.ts (printed, not
 * asserted):  node --import tsx bench/ui/trace-tail.ts trace.json [tail=0.05]
 * Each window (a question's frame at the socket -> the dock's painted mark) is taken apart on the renderer's main
 * thread: its wall time, the thread time of the tasks inside it (what the page's work cost), the wall those tasks took
 * beyond their thread time (the thread runnable but not running: the machine's other processes), the time the thread
 * had no task (waiting for the frame, the compositor, another process), and named work (GC, style, layout, paint,
 * timers, script). The slowest `tail` of the windows is printed beside the middle ones, then the slowest one by one.
 * Past about 150 questions a trace outgrows the longest string V8 makes and trace-question.ts stops after saving it;
 * this reads the saved file a line at a time.
 */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';

type TraceEvent = { ph: string; name: string; ts: number; dur?: number; tdur?: number; pid: number; tid: number; args?: { name?: string; data?: { timerId?: number; functionName?: string; url?: string } } };
type Window = { n: string; from: number; to: number };
export type WindowParts = {
  n: string;
  wallMs: number;
  taskCpuMs: number;
  preemptedMs: number;
  noTaskMs: number;
  tasks: number;
  named: Map<string, number>;
  timers: number;
  /** The socket's task (wall, thread), the wait from its end to the main frame, that frame (wall, thread). */
  socketTask: [number, number];
  waitForFrame: number;
  frame: [number, number];
};

/** Event names summed per window (thread time), grouped under a short label. */
const GROUPS: [RegExp, string][] = [
  [/^(MinorGC|MajorGC|V8\.GC_SCAVENGER$|V8\.GCScavenger$|V8\.GCFinalizeMC$|V8\.GCIncrementalMarking$|BlinkGC\.AtomicPhase$|ThreadState::performIdleLazySweep$|CppGC\.AtomicMark)/, 'gc'],
  [/^UpdateLayoutTree$/, 'style'],
  [/^Layout$/, 'layout'],
  [/^(Paint|PaintImage)$/, 'paint'],
  [/^(PrePaint|Layerize|UpdateLayer|Commit)$/, 'frame-other'],
  [/^TimerFire$/, 'timer'],
  [/^(FireAnimationFrame)$/, 'raf'],
  [/^(EventDispatch)$/, 'event'],
  [/^(FunctionCall|v8\.callFunction)$/, 'script'],
  [/^(HitTest|ScrollLayer|ResizeObserverLoopLimit|UpdateIntersectionObservations|IntersectionObserverController::computeIntersections)$/, 'observers'],
];

const overlap = (e: TraceEvent, w: Window) => Math.max(0, Math.min(w.to, e.ts + (e.dur ?? 0)) - Math.max(w.from, e.ts));

/** The events not inside another of the list on the same thread (the list from one thread). */
function outermost(list: TraceEvent[]): TraceEvent[] {
  const out: TraceEvent[] = [];
  let end = -Infinity;
  for (const e of [...list].sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0))) {
    if (e.ts < end) continue;
    out.push(e);
    end = e.ts + (e.dur ?? 0);
  }
  return out;
}

export function windowsOf(events: TraceEvent[]): Window[] {
  const marks = new Map(events.filter((e) => /^(arrive|painted)-\d+$/.test(e.name)).map((e) => [e.name, e.ts]));
  const out: Window[] = [];
  for (const [name, from] of marks) {
    if (!name.startsWith('arrive-')) continue;
    const to = marks.get(name.replace('arrive', 'painted'));
    if (to !== undefined) out.push({ n: name.slice(7), from, to });
  }
  return out;
}

export function windowParts(events: TraceEvent[]): WindowParts[] {
  const threads = new Map(events.filter((e) => e.ph === 'M' && e.name === 'thread_name').map((e) => [`${e.pid}:${e.tid}`, e.args?.name ?? '?']));
  const main = [...threads].find(([, name]) => name === 'CrRendererMain')?.[0];
  const onMain = events.filter((e) => e.ph === 'X' && e.dur !== undefined && `${e.pid}:${e.tid}` === main);
  const tasks = outermost(onMain.filter((e) => e.name === 'RunTask' || e.name === 'ThreadControllerImpl::RunTask'));
  // Nested events of one group (a Paint inside a Paint) count once, by the outer one.
  const grouped = GROUPS.flatMap(([re, group]) => outermost(onMain.filter((e) => re.test(e.name))).map((e) => ({ e, group })));
  return windowsOf(events).map((w) => {
    const inside = tasks.filter((e) => overlap(e, w) > 0);
    let taskWall = 0;
    let taskCpu = 0;
    for (const e of inside) {
      const share = overlap(e, w) / (e.dur || 1);
      taskWall += overlap(e, w);
      taskCpu += (e.tdur ?? e.dur ?? 0) * share;
    }
    const named = new Map<string, number>();
    let timers = 0;
    for (const { e, group } of grouped) {
      const part = overlap(e, w);
      if (part <= 0) continue;
      if (group === 'timer') timers++;
      named.set(group, (named.get(group) ?? 0) + ((e.tdur ?? e.dur ?? 0) * part) / (e.dur || 1) / 1000);
    }
    const wall = w.to - w.from;
    const first = inside[0];
    const frame = onMain.find((e) => e.name === 'ProxyMain::BeginMainFrame' && e.ts >= w.from && e.ts < w.to);
    const ms = (us = 0) => us / 1000;
    const socketTask: [number, number] = [ms(first?.dur), ms(first?.tdur ?? first?.dur)];
    const waitForFrame = frame && first ? ms(frame.ts - (first.ts + (first.dur ?? 0))) : 0;
    const frameParts: [number, number] = [ms(frame?.dur), ms(frame?.tdur ?? frame?.dur)];
    return { socketTask, waitForFrame, frame: frameParts, n: w.n, wallMs: wall / 1000, taskCpuMs: taskCpu / 1000, preemptedMs: Math.max(0, taskWall - taskCpu) / 1000, noTaskMs: Math.max(0, wall - taskWall) / 1000, tasks: inside.length, named, timers };
  });
}

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);

function printGroup(title: string, rows: WindowParts[]): void {
  const names = ['gc', 'style', 'layout', 'paint', 'frame-other', 'script', 'timer', 'raf', 'event', 'observers'];
  const cells = [
    ['wall', mean(rows.map((r) => r.wallMs))],
    ['task cpu', mean(rows.map((r) => r.taskCpuMs))],
    ['preempted', mean(rows.map((r) => r.preemptedMs))],
    ['no task', mean(rows.map((r) => r.noTaskMs))],
    ['tasks', mean(rows.map((r) => r.tasks))],
    ['socket task', mean(rows.map((r) => r.socketTask[0]))],
    ['(cpu)', mean(rows.map((r) => r.socketTask[1]))],
    ['wait for frame', mean(rows.map((r) => r.waitForFrame))],
    ['frame', mean(rows.map((r) => r.frame[0]))],
    ['(cpu)', mean(rows.map((r) => r.frame[1]))],
    ['timers', mean(rows.map((r) => r.timers))],
    ...names.map((k) => [k, mean(rows.map((r) => r.named.get(k) ?? 0))] as [string, number]),
  ] as [string, number][];
  console.log(`${title.padEnd(22)} ${cells.map(([k, v]) => `${k} ${v.toFixed(2)}`).join('  ')}`);
}

/** A saved Chromium trace, one event a line (as Chromium writes it): read line by line, so a trace past V8's longest
 * string still reads; only the thread names, the marks and the renderer main thread's events are kept. */
async function readTrace(file: string): Promise<TraceEvent[]> {
  const all: TraceEvent[] = [];
  for await (const line of createInterface({ input: createReadStream(file) })) {
    const text = line.trim().replace(/,$/, '');
    if (!text.startsWith('{"')) continue;
    try {
      all.push(JSON.parse(text) as TraceEvent);
    } catch {
      // the first line holds the wrapper's opening; nothing else is left out
    }
  }
  const threads = all.filter((e) => e.ph === 'M' && e.name === 'thread_name');
  const main = threads.find((e) => e.args?.name === 'CrRendererMain');
  return all.filter((e) => e.ph === 'M' || /^(arrive|painted)-\d+$/.test(e.name) || (e.pid === main?.pid && e.tid === main?.tid));
}

if (process.argv[1]?.endsWith('trace-tail.ts')) {
  const events = await readTrace(process.argv[2]);
  const tail = Number(process.argv[3] ?? 0.05);
  const rows = windowParts(events).sort((a, b) => a.wallMs - b.wallMs);
  const k = Math.max(1, Math.round(rows.length * tail));
  const mid = Math.floor(rows.length / 2);
  console.log(`${rows.length} windows; mean per window, ms (cpu = thread time)`);
  printGroup(`middle ${k}`, rows.slice(Math.max(0, mid - Math.floor(k / 2)), mid - Math.floor(k / 2) + k));
  printGroup(`slowest ${k}`, rows.slice(-k));
  printGroup('all', rows);
  console.log('slowest windows, one by one:');
  for (const r of rows.slice(-Math.max(k, 10)).reverse()) printGroup(`q${r.n}`, [r]);
}
