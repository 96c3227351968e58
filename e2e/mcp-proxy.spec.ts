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
  test('[X5][U11][Q12] a proxied form elicitation answered on its link page with typed controls; a refused value stays unanswered, its rule under the field; the next prompt skipped declines', async ({ page, openApp, gateway }, testInfo) => {
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
      // Q12: six sizes are a typed field with its list, not four options and free text.
      const size = page.getByRole('radiogroup', { name: 'Which machine size?' });
      await size.getByText('xlarge', { exact: true }).click();
      await expect(size.getByRole('radio', { name: 'xlarge' })).toBeChecked();
      await page.getByRole('group', { name: 'Backups', exact: true }).getByRole('radio', { name: 'Yes' }).click();
      const shot = testInfo.outputPath('proxied-elicitation.png');
      await page.screenshot({ path: shot, fullPage: true });
      await testInfo.attach('proxied elicitation', { path: shot, contentType: 'image/png' });
      await page.getByRole('button', { name: 'Submit', exact: true }).click();
      await expect(page.getByRole('heading', { name: 'Answer sent' })).toBeVisible();

      await expect.poll(() => asked.length, { timeout: 30_000 }).toBe(2);
      await openApp(page, `/q/${asked[1].id}`);
      // Q12: replicas is a number field with its bounds; a value above them is refused beside the field and nothing is sent.
      const replicas = page.getByRole('group', { name: 'Replicas', exact: true }).getByRole('spinbutton');
      await expect(replicas).toHaveAttribute('max', '5');
      await replicas.fill('9');
      await page.getByRole('group', { name: 'Contact', exact: true }).getByRole('textbox').fill('ops@shop.example');
      await page.getByRole('button', { name: 'Submit', exact: true }).click();
      const refused = page.getByRole('alert').filter({ hasText: 'must be at most 5 (maximum)' });
      await expect(refused).toBeVisible();
      // Q5: the refusal reads under the value, not beside it where a longer value would run into it.
      const [field, error] = [await replicas.boundingBox(), await refused.boundingBox()];
      expect(error!.y).toBeGreaterThanOrEqual(field!.y + field!.height - 1);
      expect((await operator.request('question.get', { id: asked[1].id })).question.status).toBe('pending');
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
