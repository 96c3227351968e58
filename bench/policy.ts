/**
 * G11: question.request {approval} decided by a policy of 1,000 rules, beside a plain question.request in the same run
 * and on the same gateway: the round trip (p50 / p99) and the gateway's CPU per request, as ratios. Every approval
 * carries a command of its own (bench/lib/policy-commands.ts), so each is parsed and judged afresh, never a cached one.
 */
import { performance } from 'node:perf_hooks';
import { compilePolicy, decide } from '../src/policy/index.ts';
import { meterCpu } from './lib/cpu.ts';
import { startBenchGateway } from './lib/bench-gateway.ts';
import { distinctCommands } from './lib/policy-commands.ts';
import { RawClient } from './lib/raw-client.ts';
import { summarize, type Summary } from './lib/stats.ts';

export type PolicyFigures = { rules: number; distinctCommands: number; decision: Summary; plain: Summary; decisionCpuMs: number | null; plainCpuMs: number | null; decideCpuMs: number };

/** Rules of every kind the grammar has (shell prefixes, paths, MCP tools, args), and the one the measured request meets. */
export function benchRules(count: number): unknown[] {
  const rules: unknown[] = [{ id: 'npm-tests', rule: 'Bash(npm run test *)', decision: 'allow' }];
  for (let i = 1; rules.length < count; i++) {
    const kind = i % 4;
    if (kind === 0) rules.push({ id: `tool-${i}`, rule: `Bash(tool-${i} run *)`, decision: 'allow' });
    else if (kind === 1) rules.push({ id: `danger-${i}`, rule: `Bash(danger-${i} *)`, decision: 'deny' });
    else if (kind === 2) rules.push({ id: `read-${i}`, rule: `Read(./dir-${i}/**)`, decision: 'allow' });
    else rules.push({ id: `mcp-${i}`, rule: `mcp__server${i}__create`, decision: 'ask', args: { size: { $lt: i } } });
  }
  return rules;
}

export async function measurePolicy(perKind = 300, block = 50, ruleCount = 1000): Promise<PolicyFigures> {
  const gateway = await startBenchGateway({ config: { approvals: { rules: benchRules(ruleCount), unmatched: 'ask' } } });
  try {
    const operator = await RawClient.connect(gateway.wsUrl, gateway.operatorToken, 'cli');
    const agent = await RawClient.connect(gateway.wsUrl, gateway.agentToken, 'agent');
    const { session } = await operator.ok('sessions.create', { title: 'Policy bench' });
    const commands = distinctCommands(20 + perKind);
    let next = 0;
    const approval = () => ({ sessionKey: session.key, mode: 'async', approval: { tool: 'Bash', input: { command: commands[next++] } } });
    const plain = { sessionKey: session.key, mode: 'async', questions: [{ id: 'env', header: 'Env', question: 'Where?', options: [{ label: 'A' }, { label: 'B' }] }] };
    const run = async (params: unknown, out: number[]) => {
      const t0 = performance.now();
      const res = await agent.call('question.request', params);
      out.push(performance.now() - t0);
      if (!res.ok) throw new Error(`question.request: ${JSON.stringify(res.error)}`);
    };
    // Warm both paths, then alternate blocks of each so the machine's load falls on both alike.
    for (let i = 0; i < 20; i++) {
      await run(approval(), []);
      await run(plain, []);
    }
    const times = { decision: [] as number[], plain: [] as number[] };
    const cpu = { decision: 0, plain: 0, known: true };
    for (let done = 0; done < perKind; done += block) {
      for (const kind of ['decision', 'plain'] as const) {
        const end = meterCpu([gateway.pid], undefined);
        for (let i = 0; i < block; i++) await run(kind === 'decision' ? approval() : plain, times[kind]);
        const used = end().gatewaysMs;
        if (used === null) cpu.known = false;
        else cpu[kind] += used;
      }
    }
    operator.close();
    agent.close();
    const n = times.decision.length;
    const decideCpuMs = await decisionCpu(1000);
    return {
      decideCpuMs,
      rules: ruleCount,
      distinctCommands: next,
      decision: summarize(times.decision),
      plain: summarize(times.plain),
      decisionCpuMs: cpu.known ? cpu.decision / n : null,
      plainCpuMs: cpu.known ? cpu.plain / n : null,
    };
  } finally {
    await gateway.close();
  }
}

/**
 * CPU per decide() in this process: the same rules, `count` different commands never decided before, after a warm-up
 * long enough for the JIT to settle (the gateway is a long-running process; 100 warm-up commands measured 3-5x more).
 */
async function decisionCpu(count: number): Promise<number> {
  const res = compilePolicy({ rules: benchRules(1000), unmatched: 'ask' });
  if (!res.ok) throw new Error(JSON.stringify(res.problems));
  const facts = (command: string) => ({ tool: 'Bash', input: { command }, cwd: '/p', agent: 'agent' });
  for (const c of distinctCommands(3000, 7)) await decide(res.policy, facts(c));
  const commands = distinctCommands(count, 8);
  const c0 = process.cpuUsage();
  for (const c of commands) await decide(res.policy, facts(c));
  const used = process.cpuUsage(c0);
  return (used.user + used.system) / 1000 / count;
}
