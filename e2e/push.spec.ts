import type { Page } from '@playwright/test';
import { questionPayload } from '../src/gateway/push/push-service.ts';
import { TestClient } from '../src/testing/ws-client.ts';
import { seriousAxeViolations } from './axe.ts';
import { expect, test } from './fixtures.ts';

const wsOf = (url: string) => `${url.replace(/^http/, 'ws')}/ws`;

/** The page once its service worker controls it (registered by the app after load). */
async function controlled(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
    if (navigator.serviceWorker.controller) return;
    await new Promise((ok) => navigator.serviceWorker.addEventListener('controllerchange', ok, { once: true }));
  });
}

/** CSP violations the page reports (S2): none may happen while the manifest, icons and worker load. */
async function watchCsp(page: Page): Promise<string[]> {
  const violations: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
  });
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => console.error(`Content Security Policy violation: ${e.violatedDirective} ${e.blockedURI}`));
  });
  return violations;
}

test.describe('U17 installable app and Web Push', () => {
  test('[U17][S2] the manifest, icons and worker are served with the right headers and load within the CSP', async ({ page, gateway, openApp }) => {
    const manifest = await page.request.get(`${gateway.url}/manifest.webmanifest`);
    expect(manifest.headers()['content-type']).toBe('application/manifest+json');
    expect(manifest.headers()['content-security-policy']).toContain("default-src 'self'");
    const body = (await manifest.json()) as { display: string; start_url: string; name: string; short_name: string; icons: { sizes: string; purpose: string }[] };
    expect(body).toMatchObject({ display: 'standalone', start_url: '/', short_name: 'askdock' });
    expect(body.icons.map((i) => `${i.sizes} ${i.purpose}`)).toEqual(['192x192 any', '512x512 any', '512x512 maskable']);
    for (const icon of ['/icons/icon-192.png', '/icons/icon-512.png', '/icons/maskable-512.png']) {
      const res = await page.request.get(`${gateway.url}${icon}`);
      expect(res.headers()['content-type']).toBe('image/png');
    }
    const worker = await page.request.get(`${gateway.url}/sw.js`);
    expect(worker.headers()['content-type']).toBe('text/javascript; charset=utf-8');
    expect(worker.headers()['cache-control']).toBe('no-cache');
    expect(worker.headers()['service-worker-allowed']).toBe('/');
    expect(worker.headers()['content-security-policy']).toContain("default-src 'self'");
    // The worker lists the hashed shell it caches; never the socket or a token.
    const source = await worker.text();
    expect(source).toMatch(/\/assets\/index-[\w-]+\.js/);
    expect(source).not.toContain(gateway.operatorToken);

    const violations = await watchCsp(page);
    await openApp(page);
    await controlled(page);
    expect(await page.evaluate(() => document.querySelector('link[rel="manifest"]')?.getAttribute('href'))).toBe('/manifest.webmanifest');
    // zod probes whether eval works (`Function('')`, caught) on its first schema: the app's, older than U17, refused as it should be.
    expect(violations.filter((v) => !/script-src eval/.test(v))).toEqual([]);
  });

  test('[U17] the app loads offline from the worker, without caching the token', async ({ page, context, openApp }) => {
    await openApp(page);
    await expect(page.getByRole('link', { name: 'askdock' })).toBeVisible();
    await controlled(page);
    await context.setOffline(true);
    try {
      const res = await page.reload();
      expect(res?.fromServiceWorker()).toBe(true);
      await expect(page.getByRole('link', { name: 'askdock' })).toBeVisible();
      const cached = await page.evaluate(async () => {
        const urls: string[] = [];
        for (const name of await caches.keys()) for (const req of await (await caches.open(name)).keys()) urls.push(req.url);
        return urls;
      });
      expect(cached.some((u) => u.endsWith('/index.html'))).toBe(true);
      expect(cached.filter((u) => /token|\/ws|healthz/.test(u))).toEqual([]);
    } finally {
      await context.setOffline(false);
    }
  });

  test('[U17] a push shows the notification; its action answers through the outbox with surface push, once even when fired twice', async ({ page, context, gateway, openApp }) => {
    await context.grantPermissions(['notifications'], { origin: gateway.url });
    const agent = await TestClient.open(wsOf(gateway.url));
    const operator = await TestClient.open(wsOf(gateway.url));
    try {
      await agent.connect(gateway.agentToken);
      await operator.connect(gateway.operatorToken);
      const { id } = (await agent.call('question.request', {
        mode: 'async',
        questions: [{ id: 'ship', header: 'Release', question: 'Ship 2.4 to production now?', options: [{ label: 'Ship it' }, { label: 'Wait' }] }],
      })) as { id: string };
      const { question } = (await operator.call('question.get', { id })) as { question: Parameters<typeof questionPayload>[0] };

      await openApp(page);
      await controlled(page);
      // What "Notify me on this device" hands the worker once subscribed (a real push service is out of reach here).
      await page.evaluate((token) => navigator.serviceWorker.controller!.postMessage({ type: 'token', token }), gateway.operatorToken);

      const cdp = await context.newCDPSession(page);
      const registrationId = new Promise<string>((ok) =>
        cdp.on('ServiceWorker.workerRegistrationUpdated', (e) => {
          const reg = e.registrations.find((r) => r.scopeURL === `${gateway.url}/` && !r.isDeleted);
          if (reg) ok(reg.registrationId);
        }),
      );
      await cdp.send('ServiceWorker.enable');
      // A push the DevTools protocol hands a worker that is just stopping or starting can be dropped (a push service
      // would deliver it again): each is delivered until its effect shows. Showing or closing by tag is idempotent.
      const deliver = async (data: unknown, shows: () => Promise<void>) =>
        await expect(async () => {
          await cdp.send('ServiceWorker.deliverPushMessage', { origin: gateway.url, registrationId: await registrationId, data: JSON.stringify(data) });
          await shows();
        }).toPass({ timeout: 15_000 });

      const shown = () =>
        page.evaluate(async (tag) => {
          const reg = await navigator.serviceWorker.ready;
          return (await reg.getNotifications({ tag })).map((n) => ({ title: n.title, body: n.body, actions: (n as Notification & { actions: { title: string }[] }).actions.map((a) => a.title) }));
        }, id);
      await deliver(questionPayload(question), () =>
        expect.poll(shown, { timeout: 3_000 }).toEqual([{ title: 'Release', body: 'Ship 2.4 to production now?', actions: ['Ship it', 'Wait'] }]),
      );

      // The "Ship it" action, fired twice in a row.
      await page.evaluate((tag) => {
        const sw = navigator.serviceWorker.controller!;
        sw.postMessage({ type: 'notification-tap', tag, action: '0' });
        sw.postMessage({ type: 'notification-tap', tag, action: '0' });
      }, id);
      const resolved = await operator.waitEvent('question.resolved', (e) => e.id === id, 15_000);
      expect(resolved.answers).toEqual({ ship: ['Ship it'] });
      const { question: record } = (await operator.call('question.get', { id })) as { question: { status: string; resolvedBy?: { surface: string } } };
      expect(record.status).toBe('answered');
      expect(record.resolvedBy?.surface).toBe('push');
      // Nothing left to send, and the notification is gone.
      await expect
        .poll(() =>
          page.evaluate(
            () =>
              new Promise<number>((ok) => {
                const open = indexedDB.open('askdock-push');
                open.onsuccess = () => {
                  const count = open.result.transaction('outbox').objectStore('outbox').count();
                  count.onsuccess = () => ok(count.result);
                };
              }),
          ),
        )
        .toBe(0);
      await expect.poll(shown).toEqual([]);
      expect(operator.seqEvents().filter((e) => e.event === 'question.resolved' && (e.payload as { id: string }).id === id)).toHaveLength(1);

      // A close instruction (the question resolved on another device) closes a notification still shown.
      const second = (await agent.call('question.request', { mode: 'async', questions: [{ id: 'x', header: 'Other', question: 'Again?', options: [{ label: 'Yes' }, { label: 'No' }] }] })) as { id: string };
      const { question: other } = (await operator.call('question.get', { id: second.id })) as { question: Parameters<typeof questionPayload>[0] };
      const count = async () => await page.evaluate(async (tag) => (await (await navigator.serviceWorker.ready).getNotifications({ tag })).length, second.id);
      await deliver(questionPayload(other), () => expect.poll(count, { timeout: 3_000 }).toBe(1));
      await deliver({ type: 'close', id: second.id }, () => expect.poll(count, { timeout: 3_000 }).toBe(0));
    } finally {
      agent.close();
      operator.close();
    }
  });

  for (const scheme of ['light', 'dark'] as const) {
    test(`[U17] device notifications and install at 390 px, ${scheme}`, async ({ page, openApp }, info) => {
      await page.setViewportSize({ width: 390, height: 844 });
      await page.emulateMedia({ colorScheme: scheme });
      await openApp(page);
      await page.getByRole('banner').getByRole('button', { name: 'Notifications' }).click();
      const toggle = page.getByRole('menuitemcheckbox', { name: /^Notify me on this device/ });
      await expect(toggle).toHaveAttribute('aria-checked', 'false');
      // Headless Chromium reaches no real push service: the note says what happened instead of failing silently.
      await page.context().grantPermissions(['notifications']);
      await toggle.click();
      await expect(page.getByRole('status').filter({ hasText: /notifications/i })).toBeVisible();
      await page.screenshot({ path: info.outputPath(`push-settings-390-${scheme}.png`) });
      expect(await seriousAxeViolations(page)).toEqual([]);
      // Keyboard only: the note's Dismiss is reachable and closes it.
      await page.getByRole('button', { name: 'Dismiss' }).focus();
      await page.keyboard.press('Enter');
      await expect(page.getByRole('status').filter({ hasText: /notifications/i })).toHaveCount(0);
    });
  }
});
