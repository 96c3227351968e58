import { meterCpu } from './cpu.ts';
import { summarize, type Summary } from './stats.ts';

/** One side of a same-run comparison: the gateway processes whose CPU it meters, and one timed operation (ms). */
export type Side = { pids: number[]; once: () => Promise<number> };

/**
 * Runs each side `perSide` times in alternating blocks of `block`, so the machine's load falls on every side alike:
 * each side's times summarized, and its gateways' CPU per operation (null where /proc cannot tell).
 */
export async function alternateBlocks<K extends string>(sides: Record<K, Side>, perSide: number, block: number): Promise<Record<K, { times: Summary; cpuMs: number | null }>> {
  const kinds = Object.keys(sides) as K[];
  const times = Object.fromEntries(kinds.map((k) => [k, [] as number[]])) as Record<K, number[]>;
  const cpu = Object.fromEntries(kinds.map((k) => [k, 0 as number | null])) as Record<K, number | null>;
  for (let done = 0; done < perSide; done += block) {
    for (const kind of kinds) {
      const end = meterCpu(sides[kind].pids, undefined);
      for (let i = 0; i < block; i++) times[kind].push(await sides[kind].once());
      const used = end().gatewaysMs;
      cpu[kind] = used === null || cpu[kind] === null ? null : cpu[kind] + used;
    }
  }
  return Object.fromEntries(kinds.map((k) => [k, { times: summarize(times[k]), cpuMs: cpu[k] === null ? null : cpu[k] / times[k].length }])) as Record<K, { times: Summary; cpuMs: number | null }>;
}
