// Takes the demo's pictures again (`npm run screenshot`): docs/demo.png, the README's, and docs/demo/*.png, one per
// step of the manual-testing script in docs/demo.md, by doing what the script says in Chromium.
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Locator, Page } from 'playwright-core';
import { startDemo } from '../demo/startDemo.ts';
import { launchChromium } from '../test/e2e/browser.ts';
import { fire, signIn } from '../test/e2e/demoPage.ts';

const docs = (name: string) => fileURLToPath(new URL(`../docs/${name}`, import.meta.url));
mkdirSync(docs('demo'), { recursive: true });

const demo = await startDemo({ port: 0, accessTokenTtl: 60 });
const browser = await launchChromium();

/** Saves `what` (a part of the page, or the page's first screen) as docs/demo/<name>.png. */
async function shot(what: Page | Locator, name: string): Promise<void> {
  const path = docs(`demo/${name}.png`);
  await what.screenshot({ path, animations: 'disabled', caret: 'hide' });
  console.log(`docs/demo/${name}.png`);
}

/** The newest line of the log written by a refresh with `trigger` that ended in `outcome`. */
const logLine = (page: Page, trigger: string, outcome: string) =>
  page.locator(`[data-testid="event-log"] li[data-trigger="${trigger}"][data-outcome="${outcome}"]`).first();

/** The "who" card and the log beside it, which show what a control did. */
async function countdownAndLog(page: Page, name: string): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0));
  const who = (await page.getByTestId('me').boundingBox())!;
  const log = (await page.getByTestId('log-card').boundingBox())!;
  const top = Math.min(who.y, log.y) - 8;
  const path = docs(`demo/${name}.png`);
  await page.screenshot({
    path,
    clip: {
      x: who.x - 8,
      y: top,
      width: log.x + log.width - who.x + 16,
      height: Math.max(who.y + who.height, log.y + log.height) - top + 8,
    },
  });
  console.log(`docs/demo/${name}.png`);
}

try {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await signIn(page, demo.url);
  await page.getByTestId('reset-counters').click();
  await page.getByTestId('clear-log').click();

  // Expire all, then 20 queries: one refresh (the README's picture, and the first step of the script).
  await page.getByTestId('expire').click();
  await page.getByTestId('expires-in').getByText('expired (server)').waitFor();
  await countdownAndLog(page, 'expire');
  console.log(await fire(page, 20));
  await page.getByTestId('counter-refreshes').getByText('1 (1 succeeded)').waitFor();
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: docs('demo.png') });
  console.log('docs/demo.png');
  await shot(page.getByTestId('lab-controls'), 'controls');

  // Slow refresh, Expire mine, a burst during the refresh.
  await page.getByTestId('slow-seconds').fill('2');
  await page.getByTestId('slow-refresh').click();
  await page.getByTestId('hint-slow').getByText('Each refresh takes 2 s').waitFor();
  await page.getByTestId('expire-mine').click();
  await page.getByTestId('burst-size').fill('20');
  await page.getByTestId('fire-during-refresh').click();
  await page
    .getByTestId('burst-result')
    .getByText(/20 of 20 queries succeeded/)
    .waitFor();
  await page.getByTestId('slow-refresh').click();
  await page.getByTestId('counter-refreshes').getByText('2 (2 succeeded)').waitFor();
  await shot(page.getByTestId('server-counters'), 'burst-during-refresh');

  // Server down for 5 s, and a refresh meanwhile.
  await page.getByTestId('down-seconds').fill('5');
  await page.getByTestId('server-down').click();
  await page.getByTestId('burst-size').fill('3');
  await page.getByTestId('fire-during-refresh').click();
  await page
    .getByTestId('burst-result')
    .getByText(/3 × HTTP 503/)
    .waitFor();
  await page.getByTestId('reconnecting').waitFor();
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: docs('demo/server-down.png'), clip: { x: 0, y: 0, width: 1280, height: 560 } });
  console.log('docs/demo/server-down.png');
  await logLine(page, 'retry', 'rotated').waitFor({ timeout: 15_000 });

  // Offline for this page, a refresh that waits for online, and the return.
  await page.getByTestId('offline').click();
  await page.getByTestId('burst-size').fill('2');
  await page.getByTestId('fire-during-refresh').click();
  await page.getByTestId('refresh-wait').getByText('refresh when back online').waitFor();
  await countdownAndLog(page, 'offline');
  await page.getByTestId('offline').click();
  await page
    .getByTestId('refresh-wait')
    .getByText(/held by the refresh floor/)
    .waitFor();
  await countdownAndLog(page, 'online-floor');
  await logLine(page, 'resume', 'rotated').waitFor({ timeout: 10_000 });
  await countdownAndLog(page, 'online');

  // The clock 20 minutes ahead.
  await page.getByTestId('clock-skew').selectOption('20');
  await page.getByTestId('me-id').waitFor();
  await page.getByTestId('hint-skew').getByText('ahead by 20 min').waitFor();
  await shot(page.getByTestId('me'), 'skew');
  await page.getByTestId('clock-skew').selectOption('0');
  await page.getByTestId('me-id').waitFor();

  // Revoke mine, then a burst: the session ends.
  await page.getByTestId('revoke-mine').click();
  await page.getByTestId('expires-in').getByText('revoked (server)').waitFor();
  await shot(page.getByTestId('me'), 'revoke');
  await page.getByTestId('burst-size').fill('3');
  await page.getByTestId('fire').click();
  await page.getByTestId('login-form').waitFor();
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: docs('demo/revoked.png') });
  console.log('docs/demo/revoked.png');

  // Plain refusals, as most servers send them, then revoke mine and a burst: the session checks itself.
  await signIn(page, demo.url);
  await page.getByTestId('plain-refusals').click();
  await page
    .getByTestId('hint-plain')
    .getByText(/check → rejected/)
    .waitFor();
  await page.getByTestId('revoke-mine').click();
  await page.getByTestId('expires-in').getByText('revoked (server)').waitFor();
  await page.getByTestId('burst-size').fill('3');
  await page.getByTestId('fire').click();
  await page.getByTestId('login-form').waitFor();
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: docs('demo/plain-refusals.png') });
  console.log('docs/demo/plain-refusals.png');
  await fetch(new URL('/control/plain-refusals', demo.url), { method: 'POST', body: '{"on":false}' });

  // A spent refresh token presented again.
  await signIn(page, demo.url, 'Cashier');
  await page.getByTestId('present-spent').click();
  await page.getByTestId('login-form').waitFor();
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: docs('demo/reuse.png') });
  console.log('docs/demo/reuse.png');

  // Another tab, and a logout in it.
  await signIn(page, demo.url);
  const [tab] = await Promise.all([context.waitForEvent('page'), page.getByTestId('open-tab').click()]);
  await tab.getByTestId('me-id').waitFor();
  await tab.getByTestId('logout').click();
  await page.getByTestId('login-form').waitFor();
  await page.bringToFront();
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: docs('demo/another-tab.png'), clip: { x: 0, y: 0, width: 1280, height: 400 } });
  console.log('docs/demo/another-tab.png');
  await context.close();

  // Another way in: a code by e-mail, and the code in the demo's mail box.
  const signedOut = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const door = await signedOut.newPage();
  await door.goto(demo.url);
  await door.getByTestId('tab-code').click();
  await door.getByTestId('code-email').fill('cashier@demo.test');
  await door.getByTestId('request-code').click();
  await door.getByTestId('mail-box-code').waitFor();
  await shot(door.getByTestId('login-form'), 'sign-in-code');
  await signedOut.close();

  // A phone: the strip at the top keeps the countdown and the newest event in view at the controls.
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const small = await phone.newPage();
  await signIn(small, demo.url);
  await small.screenshot({ path: docs('demo/phone.png') });
  console.log('docs/demo/phone.png');
  await small.getByTestId('expire-mine').click();
  await small.getByTestId('strip-expires-in').getByText('expired (server)').waitFor();
  await small.screenshot({ path: docs('demo/phone-controls.png') });
  console.log('docs/demo/phone-controls.png');
  await phone.close();
} finally {
  await browser.close();
  await demo.close();
}
