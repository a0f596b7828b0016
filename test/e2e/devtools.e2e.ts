import { mkdirSync, statSync } from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { useDemoInChromium } from './browser';
import { fire, signIn } from './demoPage';
import { expectNoTokenIn, keepSentTokens, openDevtools } from './devtoolsPanel';

// The devtools panel in the demo (issue 39), opened by its button as a person would, after each hard case: what it
// shows by role and text, and that no token the page sent is in the page.
const session = useDemoInChromium();
const contexts: BrowserContext[] = [];
// Every Authorization value the test's browser context sent, to look for in its pages' HTML.
let sent = new Set<string>();

afterEach(async () => {
  for (const context of contexts.splice(0)) await context.close();
});

/** A page in a browser context of its own (its own cookie, so its own session), or in `context`. */
async function newPage(context?: BrowserContext): Promise<Page> {
  if (!context) {
    context = await session.browser.newContext({ viewport: { width: 1100, height: 760 } });
    contexts.push(context);
    sent = keepSentTokens(context);
  }
  return context.newPage();
}

describe('the devtools panel in the demo', () => {
  it('after "Expire all" and a burst: one refresh (token-expired → rotated), the replayed operations counted', async () => {
    const page = await newPage();
    await signIn(page, session.demo.url);
    const { panel, timeline } = await openDevtools(page);
    await panel.getByText('admin@demo.test').first().waitFor();
    await expect(panel.innerText()).resolves.toMatch(/expires in \d+:\d\d/);
    session.demo.server.resetStats();
    await page.getByTestId('expire').click();
    await page.getByTestId('event-log').getByText('every access token expired').waitFor();
    expect(await fire(page, 20)).toContain('20 of 20');
    await timeline.getByText('20 operations replayed: Ping').waitFor();
    await expect(timeline.getByText('Refresh (token-expired) → rotated').count()).resolves.toBe(1);
    expect(session.demo.server.stats.refreshCalls).toBe(1);
    // The screenshot the README and the closing note show.
    mkdirSync('test-output', { recursive: true });
    await page.screenshot({ path: 'test-output/devtools-demo.png' });
    expect(statSync('test-output/devtools-demo.png').size).toBeGreaterThan(10_000);
    // At phone width the panel fits the screen, and its timeline scrolls inside it.
    await page.setViewportSize({ width: 390, height: 844 });
    const box = await panel.boundingBox();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(390);
    await page.screenshot({ path: 'test-output/devtools-demo-phone.png' });
    await expectNoTokenIn(page, sent);
  });

  it('after a revocation the server tells with no code: the check, then the end with its reason', async () => {
    const page = await newPage();
    await signIn(page, session.demo.url);
    const { panel, timeline } = await openDevtools(page);
    await page.getByTestId('plain-refusals').click();
    await page.getByTestId('revoke-mine').click();
    await page.getByTestId('event-log').getByText('your session revoked').waitFor();
    await page.getByTestId('fire').click();
    await page.getByTestId('login-form').waitFor();
    await timeline.getByText('Revocation check → rejected').waitFor();
    await timeline.getByText(/^Session ended: rejected/).waitFor();
    await panel
      .getByText(/unauthenticated/)
      .first()
      .waitFor();
    // The lab's server-wide setting, back for the next test (the page shows the login form now, not the lab).
    const off = await fetch(new URL('/control/plain-refusals', session.demo.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ on: false }),
    });
    expect(off.status).toBe(200);
    await expectNoTokenIn(page, sent);
  });

  it('while the server is down: a failed refresh and its retry, then the retry that gets through', async () => {
    const page = await newPage();
    await signIn(page, session.demo.url);
    const { timeline } = await openDevtools(page);
    await page.getByTestId('down-seconds').fill('3');
    await page.getByTestId('server-down').click();
    await page.getByTestId('server-up').waitFor();
    // "Fire during a refresh": a refresh the app asks for, and queries beside it, all answered 503.
    await page.getByTestId('fire-during-refresh').click();
    await timeline.getByText(/^Refresh \(manual\) → failed/).waitFor();
    await timeline.getByText(/^Retry #1 in \d+\.\d s/).waitFor();
    await timeline.getByText(/^Refresh \(retry\) → rotated/).waitFor({ timeout: 20_000 });
    await expectNoTokenIn(page, sent);
  });

  it('offline and back: the retry waits for the network, and runs when the page is online again', async () => {
    const page = await newPage();
    await signIn(page, session.demo.url);
    const { timeline } = await openDevtools(page);
    await page.getByTestId('offline').click();
    await page.getByTestId('fire-during-refresh').click();
    await timeline.getByText(/^Refresh \(manual\) → failed/).waitFor();
    await timeline.getByText('Retry #1 when the app is back online').waitFor();
    await page.getByTestId('offline').click();
    await timeline.getByText(/^Refresh \((resume|retry)\) → rotated/).waitFor({ timeout: 20_000 });
    await expectNoTokenIn(page, sent);
  });

  it('a login in another tab: the pair followed here, as the other user', async () => {
    const page = await newPage();
    await signIn(page, session.demo.url);
    const { timeline } = await openDevtools(page);
    // Another tab of the same browser: it opens signed in as the admin, and switches to the owner.
    const other = await newPage(page.context());
    await other.goto(session.demo.url);
    await other.getByTestId('me-id').waitFor();
    await other.getByTestId('switch-account-email').selectOption('owner@demo.test');
    await other.getByTestId('switch-account').click();
    await timeline.getByText(/^Pair followed from another tab or process: owner@demo\.test/).waitFor();
    await timeline.getByText('Session ended: replaced').waitFor();
    await expectNoTokenIn(page, sent);
  });
});
