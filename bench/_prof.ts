import { writeFileSync } from 'node:fs';
import { connect } from '../src/agent/sdk.ts';
import { connectOperator } from './lib/bench-gateway.ts';
import { launchChromium } from './lib/chromium.ts';
import { newBenchContext, openSession } from './ui/page-tools.ts';
import { startGateway } from '../src/gateway/gateway.ts';
const g = await startGateway({ port: 0, uiDir: process.env.UI ?? 'dist', config: { identities: [{ id: 'operator', token: 'operator-token-1', role: 'operator', scopes: ['operator.admin'] }, { id: 'agent', token: 'agent-token-1', role: 'agent', scopes: ['agent.run'] }] }, log: () => {} });
const gw = { url: g.url, wsUrl: g.wsUrl, pid: process.pid, operatorToken: 'operator-token-1', agentToken: 'agent-token-1', rssMb: () => 0, close: () => g.close() };
const browser = await launchChromium();
try {
  const op = await connectOperator(gw);
  const agent = await connect({ url: gw.url, token: gw.agentToken });
  const key = (await op.request('sessions.create', { title: 'p' })).session.key;
  const ctx = await newBenchContext(browser);
  const page = await openSession(ctx, gw, key);
  const cdp = await ctx.newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
  const ask = (n: number) => agent.askUser({ questions: [{ id: 'pick', header: 'Bench', question: `Bench question ${n}: which one?`, options: [{ label: 'Alpha' }, { label: 'Beta' }] }] }, { sessionKey: key });
  for (let n = 0; n < 5; n++) { const a = ask(n); await page.getByRole('region', { name: 'Questions' }).getByText(`Bench question ${n}:`).waitFor(); await page.keyboard.press('1'); await page.keyboard.press('Control+Enter'); await a; }
  await cdp.send('Profiler.start');
  for (let n = 5; n < 45; n++) { const a = ask(n); await page.getByRole('region', { name: 'Questions' }).getByText(`Bench question ${n}:`).waitFor(); await page.keyboard.press('1'); await page.keyboard.press('Control+Enter'); await a; }
  const { profile } = await cdp.send('Profiler.stop');
  writeFileSync('/tmp/exp/q.cpuprofile', JSON.stringify(profile));
  // self time per function
  const self = new Map<string, number>();
  const byId = new Map(profile.nodes.map((n: any) => [n.id, n]));
  const dt = profile.timeDeltas; 
  for (let i = 0; i < profile.samples.length; i++) { const n: any = byId.get(profile.samples[i]); const k = `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.split('/').pop()}:${n.callFrame.lineNumber}`; self.set(k, (self.get(k) ?? 0) + (dt[i] ?? 0) / 1000); }
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  console.log('total ms', total.toFixed(0));
  for (const [k, v] of [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, 40)) console.log(v.toFixed(1).padStart(8), k);
} finally { await browser.close(); await gw.close(); }
