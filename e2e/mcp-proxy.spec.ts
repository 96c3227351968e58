import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createNodeClient } from '../src/client/node.ts';
import type { EventPayload } from '../src/protocol/index.ts';
import { expect, test } from './fixtures.ts';

const path = (p: string) => fileURLToPath(new URL(p, import.meta.url));
const BIN = path('../bin/askdock.js');
const TSX = pathToFileURL(path('../node_modules/tsx/dist/loader.mjs')).href;
const SERVER = path('../src/testing/elicit-server.ts');

type Question = EventPayload<'question.requested'>['question'];

test.describe('askdock mcp-proxy answered in the Control UI', () => {
  test('[X5][U11] a proxied form elicitation answered on its link page; the next prompt skipped declines', async ({ page, openApp, gateway }, testInfo) => {
    test.setTimeout(90_000);
    const operator = createNodeClient({ url: gateway.url, token: gateway.operatorToken, client: { name: 'e2e-proxy-operator', mode: 'cli' } });
    await operator.start();
    const asked: Question[] = [];
    operator.on('question.requested', (p) => {
      // The server's two prompts (its schema's first and fourth fields lead them); the demo agent's questions are not ours.
      if (['region', 'replicas'].includes(p.question.questions[0]?.id ?? '')) asked.push(p.question);
    });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'mcp-proxy', '--url', gateway.url, '--token', gateway.agentToken, '--', process.execPath, '--import', TSX, SERVER],
      stderr: 'pipe',
    });
    const client = new Client({ name: 'e2e-proxy-client', version: '1.0.0' });
    await client.connect(transport);
    try {
      const call = client.callTool({ name: 'deploy', arguments: {} });
      await expect.poll(() => asked.length, { timeout: 30_000 }).toBe(1);
      await openApp(page, `/q/${asked[0].id}`);
      await page.getByRole('group', { name: 'Region', exact: true }).getByRole('radio', { name: 'eu-west' }).click();
      await page.getByRole('group', { name: 'Size', exact: true }).getByRole('textbox', { name: 'Other' }).fill('xlarge');
      await page.getByRole('group', { name: 'Backups', exact: true }).getByRole('radio', { name: 'Yes' }).click();
      const shot = testInfo.outputPath('proxied-elicitation.png');
      await page.screenshot({ path: shot, fullPage: true });
      await testInfo.attach('proxied elicitation', { path: shot, contentType: 'image/png' });
      await page.getByRole('button', { name: 'Submit', exact: true }).click();
      await expect(page.getByRole('heading', { name: 'Answer sent' })).toBeVisible();

      await expect.poll(() => asked.length, { timeout: 30_000 }).toBe(2);
      await openApp(page, `/q/${asked[1].id}`);
      await expect(page.getByRole('group', { name: 'Replicas', exact: true }).getByRole('radio', { name: '2 (Recommended)' })).toBeVisible();
      await page.getByRole('button', { name: 'Skip', exact: true }).click();
      await expect(page.getByRole('heading', { name: 'Skipped' })).toBeVisible();
      const result = await call;
      expect(JSON.parse((result.content as { text: string }[])[0].text)).toEqual({ action: 'decline' });
      const { question } = await operator.request('question.get', { id: asked[0].id });
      expect(question.answers).toEqual({ region: ['eu-west'], size: ['xlarge'], confirm: ['Yes'] });
    } finally {
      await client.close();
      operator.close();
    }
  });
});
