import { startBenchGateway, connectOperator } from './lib/bench-gateway.ts';
import { launchChromium } from './lib/chromium.ts';
import { newBenchContext } from './ui/page-tools.ts';
const gw = await startBenchGateway();
const browser = await launchChromium();
browser.on('disconnected', () => console.log('browser disconnected'));
try {
  const op = await connectOperator(gw);
  await op.request('sessions.create', { title: 'x' });
  const ctx = await newBenchContext(browser);
  const page = await ctx.newPage();
  page.on('crash', () => console.log('crash'));
  page.on('close', () => console.log('close'));
  page.on('console', (m) => console.log('console', m.text()));
  await page.goto(`${gw.url}/?token=${gw.operatorToken}`);
  await page.waitForTimeout(2000);
  console.log(await page.evaluate(() => location.href));
} finally { await browser.close(); await gw.close(); }
