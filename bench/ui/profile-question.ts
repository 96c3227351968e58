// A CPU profile of the Control UI while questions are asked and answered: `node --import tsx bench/ui/profile-question.ts [rounds] [out]`.
// Prints the busiest functions (self time) of the page's main thread; build with `npx vite build --minify false` for readable names.
import { writeFileSync } from 'node:fs';
import { connect } from '../../src/agent/sdk.ts';
import { launchChromium } from '../lib/chromium.ts';
import { connectOperator, startBenchGateway } from '../lib/bench-gateway.ts';
import { newBenchContext, openSession } from './page-tools.ts';

type Node = { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] };
type Profile = { nodes: Node[]; samples: number[]; timeDeltas: number[] };

const rounds = Number(process.argv[2] ?? 40);
const out = process.argv[3] ?? '/tmp/question.cpuprofile';
const gateway = await startBenchGateway();
const browser = await launchChromium();
try {
  const operator = await connectOperator(gateway);
  const agent = await connect({ url: gateway.url, token: gateway.agentToken, name: 'bench-agent' });
  const sessionKey = (await operator.request('sessions.create', { title: 'Profile' })).session.key;
  const context = await newBenchContext(browser);
  const page = await openSession(context, gateway, sessionKey);
  const cdp = await context.newCDPSession(page);
  const region = page.getByRole('region', { name: 'Questions' });
  const round = async (n: number) => {
    const text = `Profile question ${n}: which one?`;
    const answered = agent.askUser({ questions: [{ id: 'pick', header: 'Bench', question: text, options: [{ label: 'Alpha' }, { label: 'Beta' }] }] }, { sessionKey });
    await region.getByText(text).waitFor();
    await page.keyboard.press('1');
    await page.keyboard.press('Control+Enter');
    await answered;
    await page.evaluate(() => new Promise((idle) => requestIdleCallback(idle, { timeout: 1000 })));
  };
  for (let n = 0; n < 5; n++) await round(n);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
  await cdp.send('Profiler.start');
  for (let n = 5; n < 5 + rounds; n++) await round(n);
  const { profile } = (await cdp.send('Profiler.stop')) as unknown as { profile: Profile };
  writeFileSync(out, JSON.stringify(profile));
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const byFn = new Map<string, number>();
  let total = 0;
  for (const node of profile.nodes) {
    const us = self.get(node.id) ?? 0;
    const { functionName, url, lineNumber } = node.callFrame;
    if (functionName === '(idle)' || functionName === '(program)') continue;
    total += us;
    const key = `${functionName || '(anonymous)'} ${url.replace(/.*\//, '')}:${lineNumber + 1}`;
    byFn.set(key, (byFn.get(key) ?? 0) + us);
  }
  console.log(`busy ${(total / 1000 / rounds).toFixed(2)} ms per round over ${rounds} rounds`);
  for (const [k, us] of [...byFn].sort((a, b) => b[1] - a[1]).slice(0, 45)) console.log(`${(us / 1000 / rounds).toFixed(3).padStart(8)} ms  ${k}`);
  await context.close();
  operator.close();
  await agent.close();
} finally {
  await browser.close();
  await gateway.close();
}
