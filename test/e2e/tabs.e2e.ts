import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Demo, startDemo } from '../../demo/startDemo';
import { launchChromium } from './browser';

let demo: Demo;
let browser: Browser;
let context: BrowserContext;

beforeAll(async () => {
  demo = await startDemo({ port: 0, accessTokenTtl: 60 });
  browser = await launchChromium();
  context = await browser.newContext({ viewport: { width: 1100, height: 760 } });
});

afterAll(async () => {
  await browser?.close();
  await demo?.close();
});

async function fire(page: Page, count: number) {
  await page.getByTestId('burst-size').fill(String(count));
  await page.getByTestId('fire').click();
}

describe('two tabs of the demo on one session', () => {
  it('a second tab joins the session; forced expiry with requests in both tabs gives one refresh and no reuse', async () => {
    const first = await context.newPage();
    await first.goto(demo.url);
    await first.getByTestId('account-ADMIN').click();
    await first.getByRole('button', { name: 'Sign in' }).click();
    await first.getByTestId('me-id').waitFor();

    const second = await context.newPage();
    await second.goto(demo.url);
    await second.getByTestId('me-id').waitFor();
    expect(demo.server.stats.loginCalls).toBe(1);

    demo.server.resetStats();
    demo.server.expireAllAccessTokens();
    await Promise.all([fire(first, 15), fire(second, 15)]);
    await first.getByTestId('burst-result').getByText('15 of 15 queries succeeded').waitFor();
    await second.getByTestId('burst-result').getByText('15 of 15 queries succeeded').waitFor();
    expect(demo.server.stats).toMatchObject({ refreshCalls: 1, refreshSuccesses: 1, reuseDetections: 0 });

    // Both tabs now send the same new token.
    await Promise.all([fire(first, 1), fire(second, 1)]);
    await first.getByTestId('burst-result').getByText('1 of 1').waitFor();
    await second.getByTestId('burst-result').getByText('1 of 1').waitFor();
    const [a, b] = demo.server.stats.authorizationHeaders.slice(-2);
    expect(a).toBe(b);
  });

  it('logging out in one tab shows the login form in the other', async () => {
    const [first, second] = context.pages();
    await first!.getByTestId('logout').click();
    await first!.getByTestId('login-form').waitFor();
    await second!.getByTestId('login-form').waitFor();
    expect(demo.server.stats.logoutCalls).toBe(1);
  });

  it('logging in in one tab logs in the other', async () => {
    const [first, second] = context.pages();
    await second!.getByTestId('account-Cashier').click();
    await second!.getByRole('button', { name: 'Sign in' }).click();
    await second!.getByTestId('me-id').waitFor();
    await first!.getByTestId('me-id').waitFor();
    expect(await first!.getByTestId('role').textContent()).toBe('Cashier');
  });
});
