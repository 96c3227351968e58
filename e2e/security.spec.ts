import { expect, test } from './fixtures.ts';

test.describe('security in the browser (S1, S2, S4)', () => {
  test('[S4] signs in from a #token= link, remembers it for the browser and removes it from the address', async ({ page, gateway }) => {
    await page.goto(`${gateway.url}/#token=${encodeURIComponent(gateway.operatorToken)}`);
    await expect(page.getByRole('navigation', { name: 'Sessions' })).toBeVisible();
    await expect(page).not.toHaveURL(/token/);
    const stored = await page.evaluate(() => ({ tab: sessionStorage.getItem('askdock.token'), kept: localStorage.getItem('askdock.token') }));
    expect(stored).toEqual({ tab: gateway.operatorToken, kept: gateway.operatorToken });
    // A reload of the tab stays signed in without the token in the address.
    await page.reload();
    await expect(page.getByRole('navigation', { name: 'Sessions' })).toBeVisible();
  });

  test('[S4][U11] a question link opened in a new tab of the same browser is not asked for the token again; Sign out forgets it', async ({ page, gateway }) => {
    await page.goto(`${gateway.url}/#token=${encodeURIComponent(gateway.operatorToken)}`);
    await expect(page.getByRole('navigation', { name: 'Sessions' })).toBeVisible();

    const link = await page.context().newPage();
    await link.goto(`${gateway.url}/q/q-not-there`);
    // Signed in: the link page itself answers (this question does not exist), not the sign-in form.
    await expect(link.getByRole('heading', { name: 'Question no longer available' })).toBeVisible();
    await expect(link.getByRole('textbox', { name: 'Token' })).toHaveCount(0);

    // The top bar's one menu holds the theme too: Dark pins it.
    await link.getByRole('button', { name: 'Account' }).click();
    await link.getByRole('menuitemradio', { name: 'Dark' }).click();
    await expect(link.locator('html')).toHaveAttribute('data-theme', 'dark');
    await link.getByRole('button', { name: 'Account' }).click();
    await expect(link.getByRole('menuitemradio', { name: 'Dark' })).toBeChecked();
    await link.getByRole('menuitem', { name: /Sign out/ }).click();
    await expect(link.getByRole('textbox', { name: 'Token' })).toBeVisible();
    expect(await link.evaluate(() => [sessionStorage.getItem('askdock.token'), localStorage.getItem('askdock.token')])).toEqual([null, null]);

    const after = await page.context().newPage();
    await after.goto(`${gateway.url}/q/q-not-there`);
    await expect(after.getByRole('textbox', { name: 'Token' })).toBeVisible();
  });

  test('[S4] "Remember me" is ticked by default and keeps a typed token beyond the tab; unticked it is not kept', async ({ page, gateway }) => {
    await page.goto(gateway.url);
    await page.getByRole('textbox', { name: 'Token' }).fill(gateway.operatorToken);
    await expect(page.getByRole('checkbox', { name: 'Remember me' })).toBeChecked();
    await page.getByRole('checkbox', { name: 'Remember me' }).uncheck();
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('navigation', { name: 'Sessions' })).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('askdock.token'))).toBeNull();

    const other = await page.context().newPage();
    await other.goto(gateway.url);
    await other.getByRole('textbox', { name: 'Token' }).fill(gateway.operatorToken);
    await other.getByRole('button', { name: 'Sign in' }).click();
    await expect(other.getByRole('navigation', { name: 'Sessions' })).toBeVisible();
    expect(await other.evaluate(() => localStorage.getItem('askdock.token'))).toBe(gateway.operatorToken);
    await other.evaluate(() => localStorage.removeItem('askdock.token'));
  });

  test('[S2] the Control UI cannot be framed by another page', async ({ page, gateway }) => {
    await page.route('http://attacker.test/**', (route) =>
      route.fulfill({ contentType: 'text/html', body: `<!doctype html><iframe name="victim" src="${gateway.url}/"></iframe>` }),
    );
    // The load event waits for the frame, whether it loads or is refused.
    await page.goto('http://attacker.test/', { waitUntil: 'load' });
    const victim = page.frame({ name: 'victim' });
    expect(victim).not.toBeNull();
    // Allowed, the frame would hold the UI's own document (its #root is in the served HTML itself).
    expect(await victim!.locator('#root').count()).toBe(0);
  });

  test('[S1] a page on another origin cannot open the gateway socket', async ({ page, gateway }) => {
    await page.route('http://attacker.test/**', (route) => route.fulfill({ contentType: 'text/html', body: '<!doctype html><p>hi</p>' }));
    await page.goto('http://attacker.test/');
    const wsUrl = gateway.url.replace(/^http/, 'ws') + '/ws';
    const outcome = await page.evaluate(
      (url) =>
        new Promise<{ opened: boolean; frames: number; code: number }>((done) => {
          const ws = new WebSocket(url);
          let opened = false;
          let frames = 0;
          ws.onopen = () => (opened = true);
          ws.onmessage = () => frames++;
          ws.onclose = (e) => done({ opened, frames, code: e.code });
        }),
      wsUrl,
    );
    expect(outcome).toEqual({ opened: false, frames: 0, code: 1006 });
  });
});
