import { ensureUiBuilt } from './lib/build.ts';
import { startBenchGateway } from './lib/bench-gateway.ts';
import { launchChromium } from './lib/chromium.ts';
import { measurePanel } from './ui/panel.ts';
console.log(await ensureUiBuilt(process.cwd()));
const gw = await startBenchGateway();
const browser = await launchChromium();
const t0 = Date.now();
try {
  console.log(JSON.stringify(await measurePanel(browser, gw, { messages: Number(process.argv[2] ?? 5000), requests: 20, presses: Number(process.argv[3] ?? 100) }), null, 1));
} finally {
  console.log((Date.now() - t0) / 1000, 's');
  await browser.close();
  await gw.close();
}
