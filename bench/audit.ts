/**
 * L1-L4 (issue 56): a question round trip (agent question.request -> operator question.resolve -> the agent's
 * question.waitAnswer) on a gateway whose audit log is signed (a receipt on every answer, checkpoints), beside the same
 * round trip on a gateway whose log is unsigned (L8: the entries are still written, no receipt, no checkpoint), both in
 * this run, alternating blocks so the machine's load falls on both alike. Figures: the round trip (p50 / p99) and
 * the gateway's CPU per round trip.
 */
import { performance } from 'node:perf_hooks';
import { alternateBlocks } from './lib/alternate.ts';
import { startBenchGateway, type BenchGateway } from './lib/bench-gateway.ts';
import { RawClient } from './lib/raw-client.ts';
import type { Summary } from './lib/stats.ts';
import type { GatewayConfig } from '../src/gateway/config.ts';
import type { ExportFigures } from './audit-export.ts';

export type AuditFigures = { roundTrips: number; signed: Summary; unsigned: Summary; signedCpuMs: number | null; unsignedCpuMs: number | null; exported?: ExportFigures };

/** A key that cannot be used: the gateway runs unsigned (L8), which is what "signing off" means. */
const UNSIGNED: Omit<Partial<GatewayConfig>, 'identities'> = { audit: { keys: [{ signerKey: 'not-a-key', validFrom: '2026-01-01T00:00:00Z' }] } } as never;
const QUESTION = [{ id: 'env', header: 'Env', question: 'Where?', options: [{ label: 'Staging' }, { label: 'Production' }] }];

type Side = { gateway: BenchGateway; agent: RawClient; operator: RawClient; sessionKey: string };

async function side(config?: Omit<Partial<GatewayConfig>, 'identities'>): Promise<Side> {
  const gateway = await startBenchGateway(config ? { config } : {});
  const operator = await RawClient.connect(gateway.wsUrl, gateway.operatorToken, 'cli');
  const agent = await RawClient.connect(gateway.wsUrl, gateway.agentToken, 'agent');
  const { session } = await operator.ok('sessions.create', { title: 'Audit bench' });
  return { gateway, agent, operator, sessionKey: session.key };
}

/** One round trip; checks the receipt is there when signed and absent when not, so each side measures what it claims. */
async function roundTrip(s: Side, signed: boolean): Promise<number> {
  const t0 = performance.now();
  const { id } = await s.agent.ok('question.request', { sessionKey: s.sessionKey, questions: QUESTION });
  await s.operator.ok('question.resolve', { id, answers: { env: ['Production'] } });
  const waited = await s.agent.ok('question.waitAnswer', { id });
  const took = performance.now() - t0;
  if (typeof waited.receipt === 'string' !== signed) throw new Error(`audit bench: a ${signed ? 'signed' : 'unsigned'} gateway answered ${signed ? 'without' : 'with'} a receipt`);
  return took;
}

export async function measureAudit(perSide = 400, block = 50): Promise<AuditFigures> {
  const sides = { signed: await side(), unsigned: await side(UNSIGNED) };
  try {
    for (let i = 0; i < 20; i++) {
      await roundTrip(sides.signed, true);
      await roundTrip(sides.unsigned, false);
    }
    const measured = await alternateBlocks(
      { signed: { pids: [sides.signed.gateway.pid], once: () => roundTrip(sides.signed, true) }, unsigned: { pids: [sides.unsigned.gateway.pid], once: () => roundTrip(sides.unsigned, false) } },
      perSide,
      block,
    );
    return {
      roundTrips: measured.signed.times.n,
      signed: measured.signed.times,
      unsigned: measured.unsigned.times,
      signedCpuMs: measured.signed.cpuMs,
      unsignedCpuMs: measured.unsigned.cpuMs,
    };
  } finally {
    for (const s of Object.values(sides)) {
      s.agent.close();
      s.operator.close();
      await s.gateway.close();
    }
  }
}
