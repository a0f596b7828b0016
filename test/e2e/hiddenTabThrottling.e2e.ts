import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Demo, startDemo } from '../../demo/startDemo';
import { launchUserBrowser, type UserBrowser } from '../../scripts/soak/UserBrowser';

// 6-second access tokens: the page stays hidden for more than two of their lives.
const ACCESS_TOKEN_TTL = 6;
const HIDDEN_FOR = 14_000;

let demo: Demo;
let user: UserBrowser;
let page: Page;

beforeAll(async () => {
  demo = await startDemo({ port: 0, accessTokenTtl: ACCESS_TOKEN_TTL });
  user = await launchUserBrowser({ window: { width: 1100, height: 900 } });
  page = await user.openPage();
});

afterAll(async () => {
  await user?.close();
  await demo?.close();
});

/** Starts a chained `setTimeout(…, 200)` in the page, which records when each link ran. */
async function startTicking(): Promise<void> {
  await page.evaluate(() => {
    const ticks: number[] = [];
    (window as unknown as { ticks: number[] }).ticks = ticks;
    const tick = () => {
      ticks.push(performance.now());
      setTimeout(tick, 200);
    };
    setTimeout(tick, 200);
  });
}

/** The gaps between the links of the chain that ran since `since` (the page's `performance.now()`). */
function gapsSince(since: number): Promise<number[]> {
  return page.evaluate((since) => {
    const ticks = (window as unknown as { ticks: number[] }).ticks.filter((tick) => tick >= since);
    return ticks.slice(1).map((tick, i) => Math.round(tick - ticks[i]!));
  }, since);
}

/** What the burst card shows, read from the DOM (a hidden page paints nothing, its DOM is still there). */
function burstResult(): Promise<string> {
  return page.evaluate(() => document.querySelector('[data-testid="burst-result"]')?.textContent ?? '');
}

/** The triggers of the refreshes that the event log shows, oldest first. */
function refreshTriggers(): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll('[data-testid="event-log"] li[data-trigger]')]
      .reverse()
      .map((item) => `${item.getAttribute('data-trigger')} → ${item.getAttribute('data-outcome')}`),
  );
}

describe('a tab the browser itself hides, in Chromium with throttling on', () => {
  it('its timers wake once a second; its session stays fresh: operations while hidden and after go out with live tokens', async () => {
    await page.goto(demo.url);
    await page.getByTestId('account-ADMIN').click();
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByTestId('me-id').waitFor();
    await page.getByTestId('burst-size').fill('1');
    await startTicking();
    const refreshesBefore = (await refreshTriggers()).length;
    demo.server.resetStats();

    const hiddenAt = await page.evaluate(() => performance.now());
    await user.hide(page);

    // The browser says so, not a script: no property of the document's own shadows the native getter.
    expect(
      await page.evaluate(() => ({
        visibilityState: document.visibilityState,
        hidden: document.hidden,
        ownProperty: Object.getOwnPropertyDescriptor(document, 'visibilityState') !== undefined,
        native: /\[native code\]/.test(
          String(Object.getOwnPropertyDescriptor(Document.prototype, 'visibilityState')?.get),
        ),
      })),
    ).toEqual({ visibilityState: 'hidden', hidden: true, ownProperty: false, native: true });

    await new Promise((resolve) => setTimeout(resolve, HIDDEN_FOR));

    // An operation while hidden, more than two token lives later: a click that the page's own code dispatches
    // (Playwright's click waits for an animation frame, which a hidden page does not run).
    await page.evaluate(() => (document.querySelector('[data-testid="fire"]') as HTMLButtonElement).click());
    await expect.poll(burstResult, { timeout: 10_000, interval: 250 }).toMatch(/^1 of 1 query succeeded/);
    expect(await page.evaluate(() => document.visibilityState)).toBe('hidden');

    const gaps = await gapsSince(hiddenAt);
    console.info(`a chained 200 ms timer, hidden ${HIDDEN_FOR / 1000} s: gaps ${gaps.join(', ')} ms`);
    // The first link may run before the browser hid the page; from the second on, one wake-up a second.
    expect(gaps.length).toBeGreaterThanOrEqual(HIDDEN_FOR / 1000 - 3);
    expect(gaps.length).toBeLessThanOrEqual(HIDDEN_FOR / 1000 + 3);
    expect(Math.min(...gaps.slice(2))).toBeGreaterThanOrEqual(900);

    // The proactive timer is one setTimeout set from the refresh's answer, not a chain: aligned to the second,
    // it still runs before each token dies, so the server refused no token.
    const hiddenRefreshes = (await refreshTriggers()).slice(refreshesBefore);
    console.info(`refreshes while hidden: ${hiddenRefreshes.join(', ')}`);
    expect(hiddenRefreshes.length).toBeGreaterThanOrEqual(Math.floor(HIDDEN_FOR / 1000 / ACCESS_TOKEN_TTL));
    expect(new Set(hiddenRefreshes)).toEqual(new Set(['proactive → rotated']));
    expect(demo.server.stats).toMatchObject({ tokenExpired: 0, reuseDetections: 0, loginCalls: 0 });

    // Shown again, its first operation: the person's click, the answer on the screen, no token refused.
    await user.show(page);
    await page.getByTestId('burst-size').fill('2');
    await page.getByTestId('fire').click();
    await page.getByTestId('burst-result').getByText('2 of 2 queries succeeded').waitFor();
    expect(await page.getByTestId('me-id').textContent()).toBe('u_admin');
    expect(demo.server.stats).toMatchObject({ tokenExpired: 0, reuseDetections: 0, loginCalls: 0 });
    // Visible again, the chain is no longer held to the second.
    const shownAt = await page.evaluate(() => performance.now());
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(Math.max(...(await gapsSince(shownAt)))).toBeLessThan(900);
  });
});
