import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useDemoInChromium } from './browser';
import { signIn, viewportContext, VIEWPORTS } from './demoPage';
import { layoutProblems, screenshot } from './whatAPersonSees';

// The demo's lab, driven as a person would, at both sizes: each control, what the page then shows (the label,
// the trigger and outcome in the log, the failures counted by reason, the countdown). Real waits stay short: the
// server is taken down for 2 s and refreshes slowed by 1 s; the longest wait is the package's 5-second floor.
const session = useDemoInChromium();

/** The newest log line that a refresh with `trigger` ending in `outcome` wrote. */
const logLine = (page: Page, trigger: string, outcome: string) =>
  page.locator(`[data-testid="event-log"] li[data-trigger="${trigger}"][data-outcome="${outcome}"]`).first();

/**
 * Fires a burst and returns its result as the log tells it (the card under the button goes when the burst ends
 * the session; the log stays).
 */
async function burst(page: Page, count: number, button: 'fire' | 'fire-during-refresh' = 'fire'): Promise<string> {
  const results = page
    .getByTestId('event-log')
    .locator('li')
    .filter({ hasText: /of \d+ quer(y|ies) succeeded in \d+ ms/ });
  const before = await results.count();
  await page.getByTestId('burst-size').fill(String(count));
  await page.getByTestId(button).click();
  await expect.poll(() => results.count(), { timeout: 20_000 }).toBe(before + 1);
  const line = (await results.first().locator('.text').innerText()).replace(/^During a refresh: /, '');
  // While the session lasts, the card under the buttons says the same.
  if (await page.getByTestId('burst-result').count())
    expect(await page.getByTestId('burst-result').innerText()).toBe(line);
  return line;
}

/** The lab's counters for this session, by row id. */
async function mine(page: Page, row: string): Promise<string> {
  return page.getByTestId(`session-counter-${row}`).innerText();
}

describe.each(VIEWPORTS)('the lab at $width px ($name)', (viewport) => {
  let context: BrowserContext;
  let page: Page;
  beforeAll(async () => {
    context = await viewportContext(session.browser, viewport);
    page = await context.newPage();
  });
  afterAll(async () => {
    await fetch(new URL('/control/slow-refresh', session.demo.url), { method: 'POST', body: '{"ms":0}' });
    await context?.close();
  });

  it('every control has a hint of what should happen; the countdown, the banner and the log come first', async () => {
    await signIn(page, session.demo.url);
    await page.getByTestId('session-counter-refreshes').waitFor();
    for (const id of ['expire', 'revoke', 'reuse', 'down', 'slow', 'offline', 'skew', 'tab', 'burst']) {
      expect((await page.getByTestId(`hint-${id}`).innerText()).length, id).toBeGreaterThan(40);
    }
    expect(await page.getByTestId('expires-in').innerText()).toMatch(/^(59|60) s$/);
    expect(await page.getByTestId('token-id').innerText()).toMatch(/^…[\w-]{6}$/);
    const shot = await screenshot(page, `lab-${viewport.width}`);
    expect(shot.width).toBe(viewport.width);
    expect(
      await layoutProblems(page, [
        'expires-in',
        'refresh-in',
        'event-log',
        'lab-controls',
        'expire-mine',
        'revoke-mine',
        'present-spent',
        'server-down',
        'slow-refresh',
        'offline',
        'clock-skew',
        'open-tab',
        'fire',
        'fire-during-refresh',
      ]),
    ).toEqual([]);
    // On a phone the countdown is on the first screen and the log right after it, before the controls.
    const top = async (id: string) =>
      (await page.getByTestId(id).boundingBox())!.y + (await page.evaluate(() => window.scrollY));
    expect(await top('expires-in')).toBeLessThan(viewport.height);
    expect(await top('event-log')).toBeLessThan(await top('lab-controls'));
    expect(await top('event-log')).toBeLessThan(await top('fire'));
  });

  it('Expire mine: "expired (server)" at once; the next queries share one refresh, logged as token-expired → rotated', async () => {
    const before = await page.getByTestId('token-id').innerText();
    await page.getByTestId('expire-mine').click();
    await page.getByTestId('expires-in').getByText('expired (server)').waitFor({ timeout: 2_000 });
    if (viewport.isMobile) {
      // Down at the controls, the strip at the top of the screen says it too.
      expect(await page.getByTestId('strip-expires-in').innerText()).toBe('expired (server)');
      const strip = (await page.getByTestId('status-strip').boundingBox())!;
      expect(strip.y).toBeGreaterThanOrEqual(0);
      expect(strip.y).toBeLessThan(5);
      await screenshot(page, `lab-controls-${viewport.width}`).then(({ width }) => expect(width).toBe(viewport.width));
      await page.screenshot({ path: `test-output/screenshots/lab-controls-${viewport.width}-screen.png` });
    } else expect(await page.getByTestId('status-strip').isVisible()).toBe(false);
    expect(await burst(page, 5)).toMatch(/^5 of 5 queries succeeded in \d+ ms$/);
    const line = logLine(page, 'token-expired', 'rotated');
    expect(await line.innerText()).toMatch(
      new RegExp(
        `TOKEN_EXPIRED: pair refreshed once, operations replayed\\s+token-expired → rotated · token ${before} → …[\\w-]{6}`,
      ),
    );
    await expect.poll(() => page.getByTestId('expires-in').innerText()).toMatch(/^(59|60) s$/);
    await expect.poll(() => mine(page, 'token-expired')).toBe('5');
    await expect.poll(() => mine(page, 'refreshes')).toBe('1 (1 succeeded)');
  });

  it('Expire all, slow refresh, then a burst during the refresh: one refresh on the wire, every query joins it', async () => {
    await page.getByTestId('slow-seconds').fill('1');
    await page.getByTestId('slow-refresh').click();
    await page.getByTestId('hint-slow').getByText('Each refresh takes 1 s').waitFor();
    await page.getByTestId('expire').click();
    await page.getByTestId('expires-in').getByText('expired (server)').waitFor({ timeout: 2_000 });
    const result = await burst(page, 10, 'fire-during-refresh');
    expect(result).toMatch(/^10 of 10 queries succeeded in (\d+) ms$/);
    // The queries waited for the refresh on the wire: the burst took the refresh's second.
    expect(Number(/in (\d+) ms/.exec(result)![1])).toBeGreaterThanOrEqual(1_000);
    expect(await logLine(page, 'manual', 'rotated').innerText()).toContain('Refreshed on request');
    await expect.poll(() => mine(page, 'refreshes')).toBe('2 (2 succeeded)');
    await page.getByTestId('slow-refresh').click();
    await page.getByTestId('hint-slow').getByText('watch queries wait').waitFor();
  });

  it('Server down for 2 s: queries fail as "HTTP 503"; the refresh reads "answered HTTP 503", not "could not reach"; a retry gets through', async () => {
    await page.getByTestId('down-seconds').fill('2');
    await page.getByTestId('server-down').click();
    await page
      .getByTestId('hint-down')
      .getByText(/^Down: every request gets HTTP 503/)
      .waitFor();
    expect(await burst(page, 3, 'fire-during-refresh')).toMatch(
      /^0 of 3 queries succeeded in \d+ ms — 3 failed: 3 × HTTP 503$/,
    );
    const failed = logLine(page, 'manual', 'failed');
    expect(await failed.innerText()).toContain(
      'The server answered HTTP 503 to the refresh: still signed in, retrying',
    );
    expect(await page.getByTestId('event-log').innerText()).not.toMatch(/could not reach/i);
    expect(await page.getByTestId('reconnecting-reason').innerText()).toMatch(
      /^The server answered HTTP 503 when asked to renew your sign-in\. You are still signed in; trying again in \d+ s\.$/,
    );
    expect(await page.getByTestId('refresh-wait').innerText()).toMatch(
      /^refresh in \d s: (retry 1 after a failure|held by the refresh floor)/,
    );
    await logLine(page, 'retry', 'rotated').getByText('Refreshed on a retry').waitFor({ timeout: 10_000 });
    await page.getByTestId('reconnecting').waitFor({ state: 'detached' });
    expect(await burst(page, 2)).toMatch(/^2 of 2 queries succeeded/);
    await expect.poll(() => mine(page, 'unavailable')).toMatch(/^[1-9]\d*$/);
  });

  it('Offline for this page: queries fail as "offline"; the retry waits for online and is logged as coming back online, not waking up', async () => {
    await page.getByTestId('offline').click();
    expect(await burst(page, 2, 'fire-during-refresh')).toMatch(
      /^0 of 2 queries succeeded in \d+ ms — 2 failed: 2 × offline$/,
    );
    expect(await logLine(page, 'manual', 'failed').innerText()).toContain(
      'Could not refresh: this page is offline: still signed in, retrying',
    );
    await page.getByTestId('refresh-wait').getByText('refresh when back online (retry 1)').waitFor();
    expect(await page.getByTestId('reconnecting').innerText()).toContain('trying again when the connection comes back');
    await page.getByTestId('offline').click();
    // The refresh that the return asked for waits for the floor after the failed one, and says so.
    const resumed = logLine(page, 'resume', 'rotated');
    await resumed.waitFor({ timeout: 10_000 });
    expect(await resumed.innerText()).toContain('Refreshed on coming back online');
    expect(await page.getByTestId('event-log').innerText()).not.toMatch(/waking up/);
    expect(await burst(page, 2)).toMatch(/^2 of 2 queries succeeded/);
  });

  it("Clock skew ±20 min: the page reloads with its clock off, and the countdown still reads the token's real life", async () => {
    for (const [minutes, word] of [
      [20, 'ahead'],
      [-20, 'behind'],
    ] as const) {
      await page.getByTestId('clock-skew').selectOption(String(minutes));
      await page.getByTestId('hint-skew').getByText(`clock is ${word} by 20 min`).waitFor();
      await page.getByTestId('me-id').waitFor();
      const skew = await page.evaluate(() => Number(sessionStorage.getItem('demo-clock-skew')));
      expect(skew).toBe(minutes * 60_000);
      const expires = Number((await page.getByTestId('expires-in').innerText()).replace(' s', ''));
      expect(expires).toBeGreaterThan(0);
      expect(expires).toBeLessThanOrEqual(60);
      expect(await page.getByTestId('refresh-in').innerText()).toMatch(/^\d+ s$/);
      expect(await burst(page, 3)).toMatch(/^3 of 3 queries succeeded/);
      expect(await page.getByTestId('event-log').innerText()).not.toMatch(/expired by this device's clock/);
    }
    await page.getByTestId('clock-skew').selectOption('0');
    await page.getByTestId('hint-skew').getByText('Reloads this page with its clock 20 minutes off').waitFor();
    await page.getByTestId('me-id').waitFor();
  });

  it('Open another tab: the same session there; a logout in it signs this one out, with the reason', async () => {
    const [tab] = await Promise.all([context.waitForEvent('page'), page.getByTestId('open-tab').click()]);
    await tab.getByTestId('me-id').waitFor();
    expect(await tab.getByTestId('user-email').innerText()).toBe(await page.getByTestId('user-email').innerText());
    await tab.getByTestId('logout').click();
    await page.getByTestId('login-form').waitFor();
    expect(await page.getByTestId('session-ended-reason').innerText()).toBe('You logged out in another tab.');
    await tab.close();
  });

  it('the log lasts across sign-out and reload, and shows while signed out', async () => {
    const log = page.getByTestId('event-log');
    expect(await log.innerText()).toContain('Refreshed on coming back online');
    await page.reload();
    await page.getByTestId('login-form').waitFor();
    expect(await log.innerText()).toContain('Refreshed on coming back online');
    expect(await log.innerText()).toContain('You logged out in another tab.');
  });

  it('a failed login counts apart from logins', async () => {
    await page.getByTestId('counter-failed-logins').waitFor();
    const failed = Number(await page.getByTestId('counter-failed-logins').innerText());
    const logins = Number(await page.getByTestId('counter-logins').innerText());
    await page.locator('input[name=email]').fill('admin@demo.test');
    await page.locator('input[name=password]').fill('wrong');
    await page.getByTestId('sign-in').click();
    await page.getByTestId('login-error').waitFor();
    await expect.poll(() => page.getByTestId('counter-failed-logins').innerText()).toBe(String(failed + 1));
    expect(await page.getByTestId('counter-logins').innerText()).toBe(String(logins));
    expect(await page.getByTestId('event-log').innerText()).toContain('Login failed: Wrong e-mail or password.');
  });

  it('Present a spent refresh token: the server detects the reuse, and the page says so', async () => {
    await signIn(page, session.demo.url, 'Cashier');
    await page.getByTestId('clear-log').click();
    const reuse = Number(await page.getByTestId('counter-reuse').innerText());
    await page.getByTestId('present-spent').click();
    await page.getByTestId('login-form').waitFor();
    expect(await page.getByTestId('session-ended-reason').innerText()).toBe(
      'The server detected a reused refresh token and revoked your session. Please sign in again.',
    );
    const log = await page.getByTestId('event-log').innerText();
    // Newest first: the control, then the server's verdict, then this page's refresh refused.
    expect(log).toMatch(
      /Server: reuse detected \(spent refresh token …[\w-]{6}\): session revoked[\s\S]*Lab: a refresh token this session spent is presented again/,
    );
    expect(await logLine(page, 'manual', 'rejected').innerText()).toContain('The server refused the refresh token');
    await expect.poll(() => page.getByTestId('counter-reuse').innerText()).toBe(String(reuse + 1));
    expect(await screenshot(page, `lab-reuse-${viewport.width}`)).toMatchObject({ width: viewport.width });
  });

  it('Revoke mine: "revoked (server)" at once; the next queries end the session: "3 × session ended"', async () => {
    await signIn(page, session.demo.url);
    await page.getByTestId('revoke-mine').click();
    await page.getByTestId('expires-in').getByText('revoked (server)').waitFor({ timeout: 2_000 });
    expect(await burst(page, 3)).toMatch(/^0 of 3 queries succeeded in \d+ ms — 3 failed: 3 × session ended$/);
    await page.getByTestId('login-form').waitFor();
    expect(await page.getByTestId('session-ended-reason').innerText()).toMatch(/^The server revoked your session\./);
    expect(await logLine(page, 'token-expired', 'rejected').innerText()).toContain(
      'The server refused the refresh token',
    );
  });

  it('Plain refusals, then revoke mine: "Not authenticated" with no code makes the session check itself (check → rejected), signed out within a second', async () => {
    await signIn(page, session.demo.url);
    await page.getByTestId('plain-refusals').click();
    await page
      .getByTestId('hint-plain')
      .getByText(/check → rejected/)
      .waitFor();
    try {
      await page.getByTestId('revoke-mine').click();
      await page.getByTestId('expires-in').getByText('revoked (server)').waitFor({ timeout: 2_000 });
      const started = Date.now();
      expect(await burst(page, 3)).toMatch(/3 failed: 3 × session ended$/);
      await page.getByTestId('login-form').waitFor();
      expect(Date.now() - started).toBeLessThan(1_000);
      expect(await page.getByTestId('session-ended-reason').innerText()).toMatch(/^The server revoked your session\./);
      await logLine(page, 'check', 'rejected').waitFor();
    } finally {
      await fetch(new URL('/control/plain-refusals', session.demo.url), { method: 'POST', body: '{"on":false}' });
    }
  });

  it('Revoke all: every session of every user ends; a burst of 1 reads "1 query"', async () => {
    await signIn(page, session.demo.url, 'OWNER');
    const other = await session.browser.newContext();
    const elsewhere = await other.newPage();
    await signIn(elsewhere, session.demo.url, 'ADMIN');
    await page.getByTestId('revoke').click();
    await page.getByTestId('expires-in').getByText('revoked (server)').waitFor({ timeout: 2_000 });
    await page.getByTestId('burst-size').fill('1');
    expect(await page.getByTestId('fire').innerText()).toBe('Fire 1 query');
    expect(await burst(page, 1)).toMatch(/^0 of 1 query succeeded in \d+ ms — 1 failed: 1 × session ended$/);
    expect(await burst(elsewhere, 1)).toMatch(/1 failed: 1 × session ended$/);
    await elsewhere.getByTestId('login-form').waitFor();
    await other.close();
  });

  it('Revoke, then reload: the page signs out, and a logout meanwhile gets no 503', async () => {
    await signIn(page, session.demo.url);
    await page.getByTestId('revoke-mine').click();
    await page.getByTestId('expires-in').getByText('revoked (server)').waitFor({ timeout: 2_000 });
    // From the reload to the signed-out screen: the page is loaded (its own time, not the package's), then the
    // refusal of `me` costs one refresh, which the floor does not hold after the restore's.
    await page.reload();
    const loaded = Date.now();
    await page.getByTestId('login-form').waitFor({ timeout: 3_000 });
    expect(Date.now() - loaded).toBeLessThan(1_000);

    // A logout of a session the server revoked already: the token handler answers 200, the session is over.
    await signIn(page, session.demo.url);
    await page.getByTestId('revoke-mine').click();
    await page.getByTestId('expires-in').getByText('revoked (server)').waitFor({ timeout: 2_000 });
    const [logout] = await Promise.all([page.waitForResponse('**/auth/logout'), page.getByTestId('logout').click()]);
    expect(logout.status()).toBe(200);
    await page.getByTestId('login-form').waitFor();
  });

  it('the burst size is checked: 1 to 500, with a message', async () => {
    await signIn(page, session.demo.url);
    for (const wrong of ['0', '501', '2.5', '']) {
      await page.getByTestId('burst-size').fill(wrong);
      expect(await page.getByTestId('burst-size-error').innerText()).toBe('Enter a whole number from 1 to 500.');
      expect(await page.getByTestId('fire').isDisabled()).toBe(true);
    }
    await page.getByTestId('burst-size').fill('500');
    expect(await page.getByTestId('fire').innerText()).toBe('Fire 500 queries');
    expect(await page.getByTestId('burst-size-error').count()).toBe(0);
  });
});
