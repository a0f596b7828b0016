import type { Page } from 'playwright-core';
import { describe, expect, it, vi } from 'vitest';
import { useDemoInChromium } from './browser';

const session = useDemoInChromium();

async function fire(page: Page, count: number) {
  await page.getByTestId('burst-size').fill(String(count));
  await page.getByTestId('fire').click();
}

describe('two tabs of the demo on one session', () => {
  it('a second tab joins the session; forced expiry with requests in both tabs gives one refresh and no reuse', async () => {
    const first = await session.context.newPage();
    await first.goto(session.demo.url);
    await first.getByTestId('account-ADMIN').click();
    await first.getByRole('button', { name: 'Sign in' }).click();
    await first.getByTestId('me-id').waitFor();

    const second = await session.context.newPage();
    await second.goto(session.demo.url);
    await second.getByTestId('me-id').waitFor();
    expect(session.demo.server.stats.loginCalls).toBe(1);

    session.demo.server.resetStats();
    session.demo.server.expireAllAccessTokens();
    await Promise.all([fire(first, 15), fire(second, 15)]);
    await first.getByTestId('burst-result').getByText('15 of 15 queries succeeded').waitFor();
    await second.getByTestId('burst-result').getByText('15 of 15 queries succeeded').waitFor();
    expect(session.demo.server.stats).toMatchObject({ refreshCalls: 1, refreshSuccesses: 1, reuseDetections: 0 });

    // Both tabs now send the same new token.
    await Promise.all([fire(first, 1), fire(second, 1)]);
    await first.getByTestId('burst-result').getByText('1 of 1').waitFor();
    await second.getByTestId('burst-result').getByText('1 of 1').waitFor();
    const [a, b] = session.demo.server.stats.authorizationHeaders.slice(-2);
    expect(a).toBe(b);
  });

  it('logging out in one tab shows the login form in the other', async () => {
    const [first, second] = session.context.pages();
    await first!.getByTestId('logout').click();
    await first!.getByTestId('login-form').waitFor();
    await second!.getByTestId('login-form').waitFor();
    await vi.waitFor(() => expect(session.demo.server.stats.logoutCalls).toBe(1));
  });

  it('logging in in one tab logs in the other', async () => {
    const [first, second] = session.context.pages();
    await second!.getByTestId('account-Cashier').click();
    await second!.getByRole('button', { name: 'Sign in' }).click();
    await second!.getByTestId('me-id').waitFor();
    await first!.getByTestId('me-id').waitFor();
    expect(await first!.getByTestId('role').textContent()).toBe('Cashier');
  });
});
