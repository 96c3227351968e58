import type { Page } from '@playwright/test';
import { connect } from '../src/agent/sdk.ts';
import { DEPLOY_QUESTIONS } from '../src/agent/demo-agent.ts';
import { expect, test } from './fixtures.ts';
import { seriousAxeViolations } from './axe.ts';
import { newSession } from './sessions.ts';

const dockOf = (page: Page) => page.getByRole('region', { name: 'Questions' });
const logOf = (page: Page) => page.getByRole('log', { name: 'Conversation' });
const TOKEN = 'ghp_1a2B3c4D5e6F7g8H9i0J1k2L3m4N5o6P7q8R';

/** Everything this page keeps in the browser: localStorage, sessionStorage and every IndexedDB store. */
async function browserStorage(page: Page): Promise<string> {
  return page.evaluate(async () => {
    const out: unknown[] = [{ ...localStorage }, { ...sessionStorage }];
    for (const info of await indexedDB.databases()) {
      if (!info.name) continue;
      const db = await new Promise<IDBDatabase>((ok, fail) => {
        const req = indexedDB.open(info.name!);
        req.onsuccess = () => ok(req.result);
        req.onerror = () => fail(req.error);
      });
      for (const name of Array.from(db.objectStoreNames)) {
        const rows = await new Promise<unknown[]>((ok, fail) => {
          const req = db.transaction(name).objectStore(name).getAll();
          req.onsuccess = () => ok(req.result);
          req.onerror = () => fail(req.error);
        });
        out.push({ db: info.name, store: name, rows });
      }
      db.close();
    }
    return JSON.stringify(out);
  });
}

function sessionKeyOf(url: string): string {
  return decodeURIComponent(new URL(url).pathname.split('/')[2]);
}

test.describe('secrets and the credential guard', () => {
  test('[W4] a masked prompt: the value is typed hidden, stored for the agent, and found nowhere in the page after Submit', async ({ page, openApp, gateway }, testInfo) => {
    await openApp(page);
    const sessionKey = sessionKeyOf(await newSession(page));
    const agent = await connect({ url: gateway.url, token: gateway.agentToken, name: 'e2e-secret-agent' });
    try {
      const runId = await agent.startRun(sessionKey);
      const asked = agent.requestSecret({ name: 'OPENAI_API_KEY', description: 'To call the API for the summary.' }, { sessionKey, runId });
      const dock = dockOf(page);
      const field = dock.getByLabel('Secret value');
      await expect(field).toBeVisible();
      await expect(dock.getByText('OPENAI_API_KEY')).toBeVisible();
      await expect(field).toHaveAttribute('type', 'password');

      const value = `sk-proj-e2e${Date.now().toString(36)}Zq8wX3vB1nM6kL9jH2gF5dS7aP0`;
      await field.fill(value);
      await dock.getByRole('button', { name: 'Show' }).click();
      await expect(field).toHaveAttribute('type', 'text');
      await dock.getByRole('button', { name: 'Hide' }).click();
      await expect(field).toHaveAttribute('type', 'password');

      expect(await seriousAxeViolations(page)).toEqual([]);
      const shot = testInfo.outputPath('secret-prompt.png');
      await page.screenshot({ path: shot });
      await testInfo.attach('secret prompt', { path: shot, contentType: 'image/png' });

      await dock.getByRole('button', { name: 'Submit' }).click();
      expect(await asked).toEqual({ status: 'stored', name: 'OPENAI_API_KEY' });
      await expect(page.getByLabel('Secret value')).toHaveCount(0);
      await agent.say(runId, 'Stored OPENAI_API_KEY; calling the API now.');
      await expect(logOf(page)).toContainText('Stored OPENAI_API_KEY');

      // Nowhere in the DOM (text or attributes), the transcript or the browser's storage.
      expect(await page.evaluate(() => document.body.innerText)).not.toContain(value);
      expect(await page.content()).not.toContain(value);
      expect(await logOf(page).innerText()).not.toContain(value);
      expect(await browserStorage(page)).not.toContain(value);
      // Nor after a reload; the agent reads it through the gateway.
      await page.reload();
      await expect(logOf(page)).toContainText('Stored OPENAI_API_KEY');
      await expect(page.getByLabel('Secret value')).toHaveCount(0);
      expect(await page.content()).not.toContain(value);
      expect(await browserStorage(page)).not.toContain(value);
      expect(await agent.getSecret('OPENAI_API_KEY')).toBe(value);
      await agent.endRun(runId, 'end_turn');
    } finally {
      agent.close();
    }
  });

  test('[W4] a pending secret request comes back after a reload, and Skip declines it', async ({ page, openApp, gateway }) => {
    await openApp(page);
    const sessionKey = sessionKeyOf(await newSession(page));
    const agent = await connect({ url: gateway.url, token: gateway.agentToken, name: 'e2e-secret-agent' });
    try {
      const asked = agent.requestSecret({ name: 'DB_PASSWORD', description: 'The staging database.' }, { sessionKey });
      await expect(dockOf(page).getByLabel('Secret value')).toBeVisible();
      await page.reload();
      await expect(dockOf(page).getByText('DB_PASSWORD')).toBeVisible();
      await dockOf(page).getByRole('button', { name: 'Skip' }).click();
      expect(await asked).toEqual({ status: 'skipped', name: 'DB_PASSWORD' });
      await expect(page.getByLabel('Secret value')).toHaveCount(0);
    } finally {
      agent.close();
    }
  });

  test('[W3] the dock warns before sending Other text that looks like a credential, and sends it only once confirmed', async ({ page, openApp }) => {
    await openApp(page);
    await newSession(page);
    const message = page.getByRole('textbox', { name: 'Message' });
    await message.fill('deploy');
    await message.press('Enter');
    const dock = dockOf(page);
    await dock.getByRole('textbox', { name: 'Other' }).fill(TOKEN);
    await dock.getByRole('button', { name: 'Next', exact: true }).click();
    await dock.getByRole('checkbox', { name: 'Email' }).click();
    await dock.getByRole('button', { name: 'Submit', exact: true }).click();
    const alert = page.getByRole('alertdialog');
    await expect(alert).toContainText('GitHub token');
    await alert.getByRole('button', { name: 'Cancel' }).click();
    await expect(alert).toBeHidden();
    await expect(dock).toBeVisible();
    await dock.getByRole('button', { name: 'Submit', exact: true }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Send anyway' }).click();
    await expect(dock).toBeHidden();
  });

  test('[W3] the question link page warns too', async ({ page, openApp, gateway }) => {
    const agent = await connect({ url: gateway.url, token: gateway.agentToken, name: 'e2e-link-agent' });
    const abort = new AbortController();
    try {
      const id = `q-cred-${Date.now().toString(36)}`;
      const result = agent.askUser({ questions: [DEPLOY_QUESTIONS[0]] }, { id, signal: abort.signal });
      result.catch(() => undefined);
      await openApp(page, `/q/${id}`);
      await page.getByRole('textbox', { name: 'Other' }).fill('AKIAIOSFODNN7EXAMPLE');
      await page.getByRole('button', { name: 'Submit' }).click();
      const alert = page.getByRole('alertdialog');
      await expect(alert).toContainText('AWS access key');
      await alert.getByRole('button', { name: 'Send anyway' }).click();
      expect(await result).toEqual({ status: 'answered', answers: { answers: { env: ['AKIAIOSFODNN7EXAMPLE'] } }, receipt: expect.any(String) });
    } finally {
      abort.abort();
      agent.close();
    }
  });
});
