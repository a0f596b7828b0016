import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Demo, startDemo } from '../../demo/startDemo';
import { launchChromium } from './browser';

// 5-second access tokens: the proactive refresh (1.25 s before the end, for whole-second claims) comes 3.75 s after each rotation.
let demo: Demo;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  demo = await startDemo({ port: 0, accessTokenTtl: 5 });
  browser = await launchChromium();
  page = await (await browser.newContext({ viewport: { width: 1100, height: 900 } })).newPage();
});

afterAll(async () => {
  await browser?.close();
  await demo?.close();
});

const count = async () => Number(await page.getByTestId('ticker-count').textContent());

/** Waits until the ticker has counted `more` events beyond `from`; returns the count then. */
async function ticksBeyond(from: number, more: number): Promise<number> {
  await vi.waitFor(async () => expect(await count()).toBeGreaterThanOrEqual(from + more), {
    timeout: 15_000,
    interval: 100,
  });
  return count();
}

describe('the live ticker of the demo app in Chromium', () => {
  it('ticks through a proactive refresh and a forced expiry with no error, and stops at logout', async () => {
    const { server } = demo;
    await page.goto(demo.url);
    await page.getByTestId('account-ADMIN').click();
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByTestId('me-id').waitFor();

    await page.getByTestId('ticker-toggle').click();
    let seen = await ticksBeyond(0, 2);
    expect(await page.getByTestId('ticker-user').textContent()).toBe('u_admin');
    expect(server.ws.connectionParams).toHaveLength(1);

    // Forced expiry: the server closes the socket with 4401; one refresh, and the ticker carries on.
    await page.getByTestId('expire').click();
    await page.getByTestId('event-log').getByText('every access token expired').waitFor();
    seen = await ticksBeyond(seen, 4);
    expect(server.stats).toMatchObject({ refreshCalls: 1, refreshSuccesses: 1, reuseDetections: 0 });
    expect(server.ws.connectionParams).toHaveLength(2);
    expect(await page.getByTestId('ticker-error').count()).toBe(0);
    expect(await page.getByTestId('ticker-user').textContent()).toBe('u_admin');

    // The proactive refresh: the socket moves to the new token, the ticker does not notice.
    await vi.waitFor(() => expect(server.stats.refreshSuccesses).toBe(2), { timeout: 10_000, interval: 100 });
    await vi.waitFor(() => expect(server.ws.connectionParams).toHaveLength(3), { timeout: 5_000, interval: 50 });
    await ticksBeyond(seen, 3);
    expect(await page.getByTestId('ticker-error').count()).toBe(0);

    await page.getByTestId('logout').click();
    await page.getByTestId('login-form').waitFor();
    expect(await page.getByTestId('ticker').count()).toBe(0);
    await vi.waitFor(() => expect(server.ws.open).toBe(0), { timeout: 5_000, interval: 50 });
    const sent = server.ws.events;
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(server.ws.events).toBe(sent);
  });
});
