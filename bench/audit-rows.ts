import type { AuditFigures } from './audit.ts';
import { ratio } from './lib/stats.ts';
import { ms, pair, times, type Row } from './lib/table.ts';

/** Issue 56: the signed audit log and receipts add at most this share of gateway CPU to a question round trip. */
export const AUDIT_CPU_AIM = 1.1;

/** L1-L4: a question round trip with the audit log signed (receipts, checkpoints) beside the same with it unsigned. */
export function auditRows(f: AuditFigures): Row[] {
  const s = `Audit log (${f.roundTrips} question round trips a side, signed vs unsigned)`;
  const cpu = (x: number | null) => (x === null ? 'n/a' : ms(x));
  const cpuRatio = f.signedCpuMs !== null && f.unsignedCpuMs !== null ? ratio(f.signedCpuMs, f.unsignedCpuMs) : null;
  return [
    { section: s, figure: 'round trip signed (receipt on the answer), p50 / p99', measured: pair(f.signed.p50, f.signed.p99), baseline: `unsigned ${pair(f.unsigned.p50, f.unsigned.p99)}`, ratio: times(ratio(f.signed.p50, f.unsigned.p50)), aim: '', met: null },
    { section: s, figure: 'gateway CPU per round trip', measured: cpu(f.signedCpuMs), baseline: `unsigned ${cpu(f.unsignedCpuMs)}`, ratio: cpuRatio === null ? 'n/a' : times(cpuRatio), aim: `<= ${AUDIT_CPU_AIM.toFixed(2)}x`, met: cpuRatio === null ? null : cpuRatio <= AUDIT_CPU_AIM },
    ...(f.exported
      ? [
          { section: s, figure: `export of ${f.exported.entries.toLocaleString('en')} entries built (${f.exported.checkpoints} checkpoints, ${f.exported.megabytes.toFixed(0)} MB)`, measured: `${f.exported.exportS.toFixed(1)} s`, baseline: '', ratio: '', aim: '', met: null },
          { section: s, figure: '  the same export verified (askdock audit verify)', measured: `${f.exported.verifyS.toFixed(1)} s`, baseline: '', ratio: '', aim: '', met: null },
        ]
      : []),
  ];
}
