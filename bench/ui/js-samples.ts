/**
 * The JS sampler's time by function in a Chromium trace (category `disabled-by-default-v8.cpu_profiler`): self time
 * (the function at the top of the stack) and inclusive time (anywhere on it), summed inside the given windows and over
 * the whole trace. Names are `function file:line`, readable on a `--minify false` build.
 * Standalone on a saved trace: node --import tsx bench/ui/js-samples.ts trace.json [top=30]
 */
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

type Frame = { functionName: string; url?: string; lineNumber?: number };
type ProfileNode = { id: number; parent?: number; callFrame: Frame };
type ProfileEvent = {
  name: string;
  id?: string;
  pid: number;
  args?: { data?: { startTime?: number; cpuProfile?: { nodes?: ProfileNode[]; samples?: number[] }; timeDeltas?: number[] } };
};

export type JsTimes = { self: Map<string, number>; inclusive: Map<string, number> };
export type JsSummary = { windowed: JsTimes; whole: JsTimes };

const label = (f: Frame): string => {
  const file = f.url ? f.url.slice(f.url.lastIndexOf('/') + 1) : '';
  return `${f.functionName || '(anonymous)'}${file ? ` ${file}:${(f.lineNumber ?? 0) + 1}` : ''}`;
};

const add = (m: Map<string, number>, k: string, v: number) => m.set(k, (m.get(k) ?? 0) + v);

/** Sums each sample's interval (to the next sample) by function, in microseconds. */
export function jsSamples(events: ProfileEvent[], windows: readonly (readonly [number, number])[]): JsSummary {
  const out: JsSummary = { windowed: { self: new Map(), inclusive: new Map() }, whole: { self: new Map(), inclusive: new Map() } };
  const profiles = new Map<string, { start: number; nodes: Map<number, ProfileNode>; samples: number[]; deltas: number[] }>();
  for (const e of events) {
    const key = `${e.pid}:${e.id}`;
    if (e.name === 'Profile') profiles.set(key, { start: e.args?.data?.startTime ?? 0, nodes: new Map(), samples: [], deltas: [] });
    if (e.name !== 'ProfileChunk') continue;
    const p = profiles.get(key);
    const data = e.args?.data;
    if (!p || !data) continue;
    for (const n of data.cpuProfile?.nodes ?? []) p.nodes.set(n.id, n);
    p.samples.push(...(data.cpuProfile?.samples ?? []));
    p.deltas.push(...(data.timeDeltas ?? []));
  }
  const idle = new Set(['(idle)', '(program)', '(root)', '(garbage collector)']);
  for (const p of profiles.values()) {
    const times: number[] = [];
    let t = p.start;
    for (const d of p.deltas) times.push((t += d));
    for (let i = 0; i + 1 < p.samples.length; i++) {
      const node = p.nodes.get(p.samples[i]);
      if (!node || idle.has(node.callFrame.functionName)) continue;
      const took = times[i + 1] - times[i];
      const inWindow = windows.some(([a, b]) => times[i] >= a && times[i] < b);
      const stack = new Set<string>();
      for (let n: ProfileNode | undefined = node; n; n = n.parent === undefined ? undefined : p.nodes.get(n.parent)) stack.add(label(n.callFrame));
      for (const into of inWindow ? [out.whole, out.windowed] : [out.whole]) {
        add(into.self, label(node.callFrame), took);
        for (const name of stack) add(into.inclusive, name, took);
      }
    }
  }
  return out;
}

/** Prints the top functions by self time, with their inclusive time, per question. */
export function printJs(summary: JsSummary, questions: number, top = 30): void {
  for (const [title, times] of [['inside the windows (arrival -> painted)', summary.windowed], ['the whole trace (arrival and end)', summary.whole]] as const) {
    console.log(`JS sampler, ${title}: self ms / inclusive ms per question`);
    for (const [name, us] of [...times.self].sort((a, b) => b[1] - a[1]).slice(0, top))
      console.log(`${(us / 1000 / questions).toFixed(2).padStart(8)}  ${((times.inclusive.get(name) ?? 0) / 1000 / questions).toFixed(2).padStart(8)}  ${name}`);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const events = JSON.parse(readFileSync(process.argv[2], 'utf8')).traceEvents as (ProfileEvent & { ts: number })[];
  const marks = new Map(events.filter((e) => /^(arrive|painted)-\d+$/.test(e.name)).map((e) => [e.name, e.ts]));
  const windows: [number, number][] = [];
  for (const [name, a] of marks) {
    const p = name.startsWith('arrive-') ? marks.get(name.replace('arrive', 'painted')) : undefined;
    if (p !== undefined) windows.push([a, p]);
  }
  printJs(jsSamples(events, windows), windows.length, Number(process.argv[3] ?? 30));
}
