import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cpuRow } from '../rows.ts';
import { meterCpu } from './cpu.ts';

/**
 * A child that, once told to go (a line on its stdin), spins until it has used `ms` of CPU by its own count, then says
 * so and idles until killed: all of its spinning falls inside a meter started before the go, however the machine's
 * load schedules the two processes.
 */
function spinner(ms: number) {
  const spin = `const t0 = process.cpuUsage(); while ((process.cpuUsage(t0).user + process.cpuUsage(t0).system) / 1000 < ${ms}) {} console.log('done');`;
  const child = spawn(process.execPath, ['-e', `process.stdin.once('data', () => { ${spin} setInterval(() => {}, 1000); });`], { stdio: ['pipe', 'pipe', 'inherit'] });
  const done = new Promise<void>((ok) => child.stdout.on('data', (d: Buffer) => d.toString().includes('done') && ok()));
  return { child, done };
}

describe('D5 the scale-out bench tells where a row CPU went', () => {
  it.runIf(existsSync('/proc/self/stat'))('[D5] a process counted as a gateway shows the CPU it used in the window, and the machine at least as much', async () => {
    const { child, done } = spinner(300);
    try {
      await once(child, 'spawn');
      const stop = meterCpu([child.pid!], undefined);
      child.stdin!.write('go\n');
      await done;
      const split = stop();
      // Clock ticks are 10 ms; the child's start-up before the meter began is not counted, its spinning all is.
      expect(split.gatewaysMs).toBeGreaterThanOrEqual(200);
      expect(split.gatewaysMs).toBeLessThan(1000);
      expect(split.databaseMs).toBeNull();
      expect(split.machineBusyMs).toBeGreaterThanOrEqual(split.gatewaysMs! - 20);
      expect(split.cores).toBeGreaterThanOrEqual(1);
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('[D5] the row shows each part per round trip and the cores busy; a part not read shows as "-"', () => {
    const row = cpuRow({ gatewaysMs: 1740, databaseMs: null, benchMs: 700, machineBusyMs: 1960, elapsedMs: 1000, cores: 2 }, 1000);
    expect(row).toEqual({
      figure: '  CPU ms per round trip: gateways / database / bench (clients, proxy)',
      measured: '1.74 / - / 0.70',
      baseline: 'machine: 1.96 of 2 cores busy',
    });
    expect(cpuRow({ gatewaysMs: 1, databaseMs: 1, benchMs: 1, machineBusyMs: 1, elapsedMs: 1000, cores: 2 }, 0)).toBeNull();
  });
});
