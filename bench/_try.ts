import { ensureUiBuilt } from './lib/build.ts';
import { startBenchGateway } from './lib/bench-gateway.ts';
import { launchChromium } from './lib/chromium.ts';
import { measureQuestionPath } from './ui/question-latency.ts';
console.log(await ensureUiBuilt(process.cwd()));
const gw = await startBenchGateway();
const browser = await launchChromium();
const t0 = Date.now();
try {
  console.log(JSON.stringify(await measureQuestionPath(browser, gw, Number(process.argv[2] ?? 40), 5), null, 1));
} finally {
  console.log((Date.now() - t0) / 1000, 's');
  await browser.close();
  await gw.close();
}
