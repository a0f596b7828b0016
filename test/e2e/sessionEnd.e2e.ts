import type { BrowserContext, Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { useDemoInChromium, useDemoWithMovableClock } from './browser';
import { signIn } from './demoPage';
import { layoutProblems, screenshot } from './whatAPersonSees';

const session = useDemoInChromium();
const contexts: BrowserContext[] = [];

afterEach(async () => {
  await Promise.all(contexts.splice(0).map((context) => context.close()));
});

/** A phone's browser context of its own (its own cookie jar, its own tabs), closed after the test. */
async function isolatedContext(): Promise<BrowserContext> {
  const context = await session.browser.newContext({
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
  });
  contexts.push(context);
  return context;
}

/** Two tabs of one browser, on one session: the first signed in, the second joined it. */
async function twoTabsSignedIn(): Promise<[Page, Page]> {
  const context = await isolatedContext();
  const first = await context.newPage();
  await signIn(first, session.demo.url);
  const second = await context.newPage();
  await second.goto(session.demo.url);
  await second.getByTestId('me-id').waitFor();
  return [first, second];
}

/**
 * The sentence the page shows about why its session ended, once it shows one; the screen is saved as
 * `ended-<shot>.png` and must fit the phone's width.
 */
async function endedReason(page: Page, shot?: string): Promise<string> {
  const reason = page.getByTestId('session-ended-reason');
  await reason.waitFor({ timeout: 10_000 });
  if (shot) {
    expect((await screenshot(page, `ended-${shot}-390`)).width).toBe(390);
    expect(await layoutProblems(page, ['session-ended', 'session-ended-reason', 'session-ended-dismiss'])).toEqual([]);
  }
  return reason.innerText();
}

/** Whether the notice about the ended session is an alert (the server ended it) or a status line (the user did). */
const noticeRole = (page: Page) => page.getByTestId('session-ended').getAttribute('role');

/** The login form shows, and nothing of the previous user does. */
async function expectSignedOut(page: Page): Promise<void> {
  await page.getByTestId('login-form').waitFor();
  expect(await page.getByTestId('me').count()).toBe(0);
  expect(await page.locator('main').innerText()).not.toContain('u_admin');
}

describe('the demo says why a session ended', () => {
  it('logged out here: "You logged out."', async () => {
    const page = await (await isolatedContext()).newPage();
    await signIn(page, session.demo.url);
    expect(await page.getByTestId('session-ended').count()).toBe(0);
    await page.getByTestId('logout').click();
    await expectSignedOut(page);
    expect(await endedReason(page, 'logout-here')).toBe('You logged out.');
    expect(await noticeRole(page)).toBe('status');
    await page.getByTestId('session-ended-dismiss').click();
    expect(await page.getByTestId('session-ended').count()).toBe(0);
  });

  it('logged out in another tab: that tab says so', async () => {
    const [first, second] = await twoTabsSignedIn();

    await first.getByTestId('logout').click();
    await expectSignedOut(second);
    expect(await endedReason(second, 'logout-elsewhere')).toBe('You logged out in another tab.');
    expect(await endedReason(first)).toBe('You logged out.');
    expect(await noticeRole(second)).toBe('status');
  });

  it('signed in as someone else in another tab: the first tab says so and shows the new user only', async () => {
    const [first, second] = await twoTabsSignedIn();

    await second.getByTestId('switch-account-email').selectOption('cashier@demo.test');
    await second.getByTestId('switch-account').click();
    await second.getByTestId('role').getByText('Cashier').waitFor();
    await first.getByTestId('me-id').getByText('u_cashier').waitFor();
    expect(await endedReason(first, 'replaced-elsewhere')).toBe('You signed in as someone else in another tab.');
    // The tab that switched did it itself: it has nothing to explain.
    expect(await second.getByTestId('session-ended').count()).toBe(0);
    expect(await first.getByTestId('user-email').innerText()).toBe('cashier@demo.test');
    // Who is signed in, as the page says it (the event log keeps its history; "Switch to" offers the admin).
    expect(await first.getByTestId('me').locator('h2, p').allInnerTexts()).toEqual([
      'cashier@demo.test Cashier',
      'me: u_cashier',
    ]);
    expect(await noticeRole(first)).toBe('status');
  });

  it('revoked by the server: the next refresh is refused, and the page says the server revoked the session', async () => {
    const page = await (await isolatedContext()).newPage();
    await signIn(page, session.demo.url);
    expect((await page.request.post(new URL('/control/revoke-sessions', session.demo.url).href)).ok()).toBe(true);
    // The next query is refused (UNAUTHENTICATED); the refresh it asks for tells: the session is over.
    await page.getByTestId('fire').click();
    await expectSignedOut(page);
    expect(await endedReason(page, 'revoked')).toMatch(/^The server revoked your session\./);
    expect(await noticeRole(page)).toBe('alert');
  });
});

describe('the demo says when the sign-in expired', () => {
  // A clock this test moves past the cookie's (the refresh token's) 30-day life without waiting a month.
  const clock = useDemoWithMovableClock({ accessTokenTtl: 60 });

  it('refresh token expired: the next refresh is refused, and the page says the sign-in expired', async () => {
    const page = await (await isolatedContext()).newPage();
    await signIn(page, clock.demo.url);
    clock.skew = 31 * 24 * 3600 * 1000;
    // The server's clock now says the access token is long dead: the refresh it asks for finds the session expired.
    await page.getByTestId('fire').click();
    await expectSignedOut(page);
    expect(await endedReason(page, 'expired')).toBe('Your sign-in has expired. Please sign in again.');
    expect(await noticeRole(page)).toBe('alert');
  });
});
