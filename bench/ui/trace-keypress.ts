/**
 * What one number key on the dock costs the browser, frame by frame (printed, not asserted):
 *   node --import tsx bench/ui/trace-keypress.ts [presses=60] [trace.json]
 * A session with one single-select question; `presses` keys (2, 1, 2, ...) with the panel bench's probe, under a Chromium
 * trace. Prints key -> committed / painted, then the trace's heaviest events per key (main frames, raster tasks, ...).
 */
import { writeFileSync } from 'node:fs';
import { prepareKeyTarget, pressKeys, readKeypress } from './keypress.ts';
import { newBenchContext, openSession } from './page-tools.ts';
import { withTraceRig } from './trace-rig.ts';

const presses = Number(process.argv[2] ?? 60);
await withTraceRig(async ({ gateway, browser, agent, sessionKey }) => {
  const question = { id: 'pick', header: 'Bench', question: 'Which one should it be?', options: [{ label: 'Alpha' }, { label: 'Beta' }, { label: 'Gamma' }] };
  void agent.askUser({ questions: [question] }, { sessionKey }).catch(() => undefined);
  const page = await openSession(await newBenchContext(browser), gateway, sessionKey);
  await page.getByRole('region', { name: 'Questions' }).getByRole('radio').first().waitFor();
  const target = await prepareKeyTarget(page);
  await pressKeys(target, 20);
  await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'cc', 'viz', 'benchmark'] });
  await pressKeys(target, presses);
  const trace = await browser.stopTracing();
  if (process.argv[3]) writeFileSync(process.argv[3], trace);
  const { toDom, toPaint } = await readKeypress(target, 20);
  console.log(`key -> committed p50 / p95 ${toDom.p50} / ${toDom.p95} ms; key -> painted p50 / p95 ${toPaint.p50} / ${toPaint.p95} ms`);
  const sums = new Map<string, { count: number; us: number }>();
  for (const e of JSON.parse(trace.toString()).traceEvents as { ph: string; name: string; dur?: number }[]) {
    if (e.ph !== 'X' || !e.dur) continue;
    const s = sums.get(e.name) ?? { count: 0, us: 0 };
    s.count++;
    s.us += e.dur;
    sums.set(e.name, s);
  }
  for (const [name, s] of [...sums].sort((a, b) => b[1].us - a[1].us).slice(0, 25))
    console.log(`${(s.us / 1000 / presses).toFixed(2).padStart(8)} ms ${(s.count / presses).toFixed(1).padStart(7)} x  per key  ${name}`);
});
