import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';

/**
 * Where a bench row's CPU went, read from Linux's /proc: the gateways' processes, the database server's (its postmaster
 * and backends), the bench's own process (its clients and the delaying proxy's thread), and the machine as a whole.
 * Null figures where there is no /proc (another OS) or no process to read (a database the bench did not start).
 */
export type CpuSplit = {
  gatewaysMs: number | null;
  databaseMs: number | null;
  benchMs: number;
  /** Every core's busy time (all but idle and I/O wait), whatever ran it. */
  machineBusyMs: number | null;
  elapsedMs: number;
  cores: number;
};

let ticksPerSecond: number | null | undefined;
function msPerTick(): number | null {
  if (ticksPerSecond === undefined) {
    try {
      ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || null;
    } catch {
      ticksPerSecond = null;
    }
  }
  return ticksPerSecond ? 1000 / ticksPerSecond : null;
}

/** The fields of /proc/<pid>/stat after its command name (which may hold spaces): [0] is field 3 (state). */
function statFields(pid: number): string[] | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return text.slice(text.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

/** CPU ms a process has used (user + system, its waited-for children not counted), or null. */
function processCpuMs(pid: number): number | null {
  const f = statFields(pid);
  const tick = msPerTick();
  if (!f || tick === null) return null;
  return (Number(f[11]) + Number(f[12])) * tick;
}

/** A process and its children (a PostgreSQL postmaster's backends and workers). */
function withChildren(pid: number): number[] {
  const pids = [pid];
  let entries: string[] = [];
  try {
    entries = readdirSync('/proc');
  } catch {
    return pids;
  }
  for (const name of entries) {
    if (!/^\d+$/.test(name)) continue;
    const f = statFields(Number(name));
    if (f && Number(f[1]) === pid) pids.push(Number(name));
  }
  return pids;
}

function machineBusyMs(): number | null {
  const tick = msPerTick();
  try {
    const cpu = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    if (tick === null || cpu.length < 5) return null;
    // user nice system idle iowait irq softirq steal ...: busy is all but idle and iowait (guest time is inside user).
    const total = cpu.slice(0, 8).reduce((a, b) => a + b, 0);
    return (total - cpu[3] - cpu[4]) * tick;
  } catch {
    return null;
  }
}

/** CPU ms of each process now; ones gone by the end count what they had used at the start as used before it. */
function snapshot(pids: number[]): Map<number, number> {
  const out = new Map<number, number>();
  for (const pid of pids) {
    const ms = processCpuMs(pid);
    if (ms !== null) out.set(pid, ms);
  }
  return out;
}

function spent(before: Map<number, number>, after: Map<number, number>): number {
  let ms = 0;
  for (const [pid, end] of after) ms += end - (before.get(pid) ?? 0);
  return ms;
}

/** Starts reading; the returned function ends the window and tells where its CPU went. */
export function meterCpu(gatewayPids: number[], databasePid: number | undefined): () => CpuSplit {
  const dbPids = () => (databasePid === undefined ? [] : withChildren(databasePid));
  const gw0 = snapshot(gatewayPids);
  const db0 = snapshot(dbPids());
  const bench0 = process.cpuUsage();
  const machine0 = machineBusyMs();
  const t0 = performance.now();
  return () => {
    const elapsedMs = performance.now() - t0;
    const gw1 = snapshot(gatewayPids);
    const db1 = snapshot(dbPids());
    const bench = process.cpuUsage(bench0);
    const machine1 = machineBusyMs();
    return {
      gatewaysMs: gw1.size === gatewayPids.length && gatewayPids.length > 0 ? spent(gw0, gw1) : null,
      databaseMs: databasePid !== undefined && db1.size > 0 ? spent(db0, db1) : null,
      benchMs: (bench.user + bench.system) / 1000,
      machineBusyMs: machine0 !== null && machine1 !== null ? machine1 - machine0 : null,
      elapsedMs,
      cores: availableParallelism(),
    };
  };
}
