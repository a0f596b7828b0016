import { expect } from 'vitest';
import type { BrowserContext, Locator, Page } from 'playwright-core';

/** Opens the token auth devtools by its button, as a person would; returns the panel and its timeline. */
export async function openDevtools(page: Page): Promise<{ panel: Locator; timeline: Locator }> {
  await page.getByRole('button', { name: 'Open token auth devtools' }).click();
  const panel = page.getByRole('region', { name: 'Token auth devtools' });
  await panel.waitFor();
  return { panel, timeline: panel.getByRole('list', { name: 'Session timeline' }) };
}

/** Keeps every access token a page of `target` sends as `Authorization`, to look for in the page's HTML. */
export function keepSentTokens(target: BrowserContext | Page): Set<string> {
  const sent = new Set<string>();
  target.on('request', (request) => {
    const authorization = request.headers()['authorization'];
    if (authorization) sent.add(authorization.replace(/^Bearer\s+/i, ''));
  });
  return sent;
}

/** No token of `sent` (at least one), nor a JWT's payload segment, is anywhere in the page's HTML. */
export async function expectNoTokenIn(page: Page, sent: ReadonlySet<string>): Promise<void> {
  const html = await page.content();
  expect(sent.size).toBeGreaterThan(0);
  for (const token of sent) {
    expect(html).not.toContain(token);
    const payload = token.split('.')[1];
    if (payload) expect(html).not.toContain(payload);
  }
}
