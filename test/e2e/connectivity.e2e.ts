import { describe, expect, it } from 'vitest';
import { useDemoInChromium } from './browser';
import { fire, signIn } from './demoPage';
import { layoutProblems, screenshot } from './whatAPersonSees';

const session = useDemoInChromium();

describe('the demo after the computer slept', () => {
  it('logs the refresh that runs when the page comes back as a refresh on waking up, not a proactive one', async () => {
    const page = await session.context.newPage();
    // The page's clock is Playwright's: it can jump ahead as a sleeping laptop's does, with no timer firing.
    await page.clock.install();
    await signIn(page, session.demo.url);
    const log = page.getByTestId('event-log');
    expect(await page.getByTestId('refresh-in').innerText()).toMatch(/^5[01] s$/);

    session.demo.server.resetStats();
    await page.clock.setSystemTime(Date.now() + 55_000);
    expect(await log.innerText()).not.toMatch(/waking up|Proactive/);
    await page.evaluate(() => window.dispatchEvent(new Event('focus')));
    await log.getByText('Refreshed on waking up').waitFor();
    expect(await log.innerText()).not.toMatch(/Proactive/);
    // One refresh, with a new schedule: the page does not keep refreshing.
    await expect.poll(() => page.getByTestId('refresh-in').innerText()).toMatch(/^(4\d|5[01]) s$/);
    expect(session.demo.server.stats).toMatchObject({ refreshCalls: 1, refreshSuccesses: 1, reuseDetections: 0 });
    expect((await log.innerText()).match(/waking up/g)).toHaveLength(1);
    await page.close();
  });
});

describe('the demo while the server cannot be reached', () => {
  it('shows "reconnecting" while the refresh fails on the network, stays signed in, and clears it once a retry gets through', async () => {
    const context = await session.browser.newContext({
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
    });
    try {
      const page = await context.newPage();
      await signIn(page, session.demo.url);
      expect(await page.getByTestId('reconnecting').count()).toBe(0);

      // The network drops every refresh; the next query finds its token expired and needs one.
      await page.route('**/auth/refresh', (route) => route.abort('internetdisconnected'));
      await page.getByTestId('expire').click();
      await page.getByTestId('event-log').getByText('every access token expired').waitFor();
      await page.getByTestId('fire').click();
      const banner = page.getByTestId('reconnecting');
      await banner.waitFor();
      expect(await banner.innerText()).toMatch(
        /Reconnecting…\s+The server could not renew your sign-in\. You are still signed in; trying again in \d+ s\./,
      );
      expect(await page.getByTestId('event-log').innerText()).toContain(
        'Could not reach the server to refresh: still signed in, retrying',
      );
      expect((await screenshot(page, 'reconnecting-390')).width).toBe(390);
      expect(await layoutProblems(page, ['reconnecting', 'me-id', 'logout'])).toEqual([]);
      expect(await page.getByTestId('login-form').count()).toBe(0);

      await page.unroute('**/auth/refresh');
      await banner.waitFor({ state: 'detached', timeout: 20_000 });
      expect(await page.getByTestId('me-id').innerText()).toBe('u_admin');
      expect(await fire(page, 3)).toMatch(/^3 of 3 queries succeeded/);
    } finally {
      await context.close();
    }
  });

  it('says in plain words that the server cannot be reached when signing in fails on the network', async () => {
    // A browser of its own: no session cookie from the tests before.
    const context = await session.browser.newContext();
    const page = await context.newPage();
    await page.route('**/auth/login', (route) => route.abort('internetdisconnected'));
    await page.goto(session.demo.url);
    await page.getByTestId('account-OWNER').click();
    await page.getByTestId('sign-in').click();
    const error = page.getByTestId('login-error');
    await error.waitFor();
    expect(await error.innerText()).toBe('The server cannot be reached. Check your connection and try again.');
    expect(await page.getByRole('alert').innerText()).not.toMatch(/failed on the network|login/);
    await context.close();
  });
});
