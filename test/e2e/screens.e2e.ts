import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useDemoInChromium } from './browser';
import { fire, signIn, viewportContext, VIEWPORTS } from './demoPage';
import { buttonLook, layoutProblems, screenshot } from './whatAPersonSees';

const session = useDemoInChromium();

const DESTRUCTIVE = ['logout', 'expire', 'revoke'] as const;

describe.each(VIEWPORTS)('what a person sees at $width px ($name)', (viewport) => {
  let context: BrowserContext;
  let page: Page;
  beforeAll(async () => {
    context = await viewportContext(session.browser, viewport);
    page = await context.newPage();
  });
  afterAll(() => context?.close());

  it('signed out: the login form and the counters fit the window; "Sign in" is the one primary button', async () => {
    await page.goto(session.demo.url);
    await page.getByTestId('login-form').waitFor();
    await page.getByTestId('counter-logins').waitFor();
    const shot = await screenshot(page, `signed-out-${viewport.width}`);
    expect(shot.width).toBe(viewport.width);
    expect(shot.bytes).toBeGreaterThan(10_000);
    expect(
      await layoutProblems(page, [
        'login-form',
        'sign-in',
        'account-OWNER',
        'account-ADMIN',
        'account-Cashier',
        'server-counters',
        'reset-counters',
      ]),
    ).toEqual([]);

    const primary = await buttonLook(page, 'sign-in');
    const reset = await buttonLook(page, 'reset-counters');
    expect(primary.luminance).toBeLessThan(0.4);
    expect(reset.luminance).toBeGreaterThan(0.85);
    expect(await page.locator('button.primary:visible').count()).toBe(1);

    // A wrong password, said as a person would say it.
    await page.locator('input[name=email]').fill('cashier@demo.test');
    await page.locator('input[name=password]').fill('wrong');
    await page.getByTestId('sign-in').click();
    const error = page.getByTestId('login-error');
    await error.waitFor();
    expect(await error.innerText()).toBe('Wrong e-mail or password.');
    expect(await layoutProblems(page, ['login-error'])).toEqual([]);
  });

  it('signed in: the dashboard fits the window; the destructive buttons are outlined, "Fire" stands out', async () => {
    await signIn(page, session.demo.url, 'Cashier');
    await page.getByTestId('counter-logins').waitFor();
    const shot = await screenshot(page, `dashboard-${viewport.width}`);
    expect(shot.width).toBe(viewport.width);
    expect(
      await layoutProblems(page, [
        'me',
        'user-email',
        'role',
        'me-id',
        'expires-in',
        'refresh-in',
        'logout',
        'switch-account',
        'token-locations',
        'burst-size',
        'fire',
        'expire',
        'revoke',
        'server-counters',
        'counter-logins',
        'counter-refreshes',
        'counter-reuse',
        'counter-logouts',
        'counter-token-expired',
        'reset-counters',
        'ticker-toggle',
        'event-log',
      ]),
    ).toEqual([]);
    expect(await page.getByTestId('user-email').innerText()).toBe('cashier@demo.test');

    const primary = await buttonLook(page, 'fire');
    expect(primary.luminance).toBeLessThan(0.4);
    for (const id of DESTRUCTIVE) {
      const look = await buttonLook(page, id);
      expect(look.background, id).not.toBe(primary.background);
      expect(look.luminance, id).toBeGreaterThan(0.85);
    }
    expect(await page.locator('button.primary:visible').count()).toBe(1);
    // On a phone the cards stack: each starts below the one before it.
    if (viewport.isMobile) {
      const tops = await page
        .locator('.dashboard > .card')
        .evaluateAll((cards) => cards.map((card) => card.getBoundingClientRect().top));
      expect(tops).toEqual([...tops].sort((a, b) => a - b));
      expect(new Set(tops).size).toBe(tops.length);
    }
  });

  it('the counters card shows what the server counted, and its button resets them', async () => {
    await page.getByTestId('reset-counters').click();
    await expect.poll(() => page.getByTestId('counter-logins').innerText()).toBe('0');
    await page.getByTestId('expire').click();
    expect(await fire(page, 5)).toMatch(/^5 of 5 queries succeeded/);
    // The card polls the server: it catches up within a second.
    const counters = () => page.getByTestId('stats').innerText();
    await expect
      .poll(counters)
      .toMatch(
        /Logins\s+0\s+Failed logins\s+0\s+Refreshes\s+1 \(1 succeeded\)\s+1 \(1 succeeded\)\s+Reuse detections\s+0\s+0\s+Logouts\s+0\s+0\s+TOKEN_EXPIRED answers\s+5\s+5/,
      );
    expect(session.demo.server.stats).toMatchObject({ tokenExpired: 5, refreshCalls: 1, reuseDetections: 0 });
  });

  it('after the server revoked the session: the login form, and why, in plain words', async () => {
    await page.getByTestId('revoke').click();
    await page.getByTestId('fire').click();
    const reason = page.getByTestId('session-ended-reason');
    await reason.waitFor();
    await page.getByTestId('login-form').waitFor();
    const shot = await screenshot(page, `session-ended-${viewport.width}`);
    expect(shot.width).toBe(viewport.width);
    expect(await reason.innerText()).toMatch(/revoked/i);
    expect(await page.getByRole('alert').filter({ has: reason }).count()).toBe(1);
    expect(await page.getByTestId('me-id').count()).toBe(0);
    expect(await layoutProblems(page, ['session-ended', 'session-ended-reason', 'login-form', 'sign-in'])).toEqual([]);
    // Nothing on the screen speaks the library's language.
    expect(await page.locator('main').innerText()).not.toMatch(/was rejected|SessionEndedError|\(rejected\)/);
  });
});
