import type { Page } from '@playwright/test';
import type { GatewayClient } from '../src/client/client.ts';
import { createNodeClient } from '../src/client/node.ts';
import { expect, type GatewayFixture } from './fixtures.ts';
import { newSession } from './sessions.ts';

type OpenApp = (page: Page, path?: string) => Promise<void>;

/** Opens a new session and has the demo agent ask its async lunch question; focus stays in the composer. Returns the dock. */
export async function askLunch(page: Page, openApp: OpenApp) {
  await openApp(page);
  await newSession(page);
  const message = page.getByRole('textbox', { name: 'Message' });
  await message.fill('async lunch please');
  await message.press('Enter');
  const dock = page.getByRole('region', { name: 'Questions' });
  await expect(dock.getByRole('radio', { name: 'Pizza (Recommended)' })).toBeVisible();
  return dock;
}

/** A Node client signed in as the operator, to check what the gateway holds. */
export async function operator(gateway: GatewayFixture, name: string): Promise<GatewayClient> {
  const client = createNodeClient({ url: gateway.url, token: gateway.operatorToken, client: { name, mode: 'cli' } });
  await client.start();
  return client;
}

/** The demo agent's lunch question in a session, as the gateway holds it. */
export async function lunchQuestion(client: GatewayClient, sessionKey: string) {
  const { questions } = await client.request('question.list', { sessionKey });
  const lunch = questions.find((q) => q.questions[0]?.id === 'lunch');
  if (!lunch) throw new Error(`no lunch question in session ${sessionKey}`);
  return lunch;
}
