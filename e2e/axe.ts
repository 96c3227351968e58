import axe from 'axe-core';
import { test, type Page } from '@playwright/test';

export type AxeFinding = { id: string; impact?: string | null; help: string; nodes: string[] };

/**
 * The serious and critical axe violations on the page as it is now. axe is evaluated, not added as a <script> tag: the
 * gateway's CSP refuses inline scripts (S2). Loading and running axe is heavy work for the page, so the test gets a
 * minute more for each check instead of a deadline that only a quiet machine meets.
 */
export async function seriousAxeViolations(page: Page): Promise<AxeFinding[]> {
  test.info().setTimeout(test.info().timeout + 60_000);
  const loaded = await page.evaluate(() => 'axe' in window);
  if (!loaded) await page.evaluate(axe.source);
  const results = await page.evaluate(() => (window as unknown as { axe: typeof axe }).axe.run());
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => n.target.join(' ')) }));
}
