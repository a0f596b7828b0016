import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { type Demo, startDemo } from '../../demo/startDemo';
import { userBrowserLaunchOptions } from '../../scripts/soak/UserBrowser';

// 8-second access tokens: renewed 6.6 s after they arrive, so a return after 2 s finds the token alive and its
// refresh not yet due, and one after 9 s finds the token the page left with dead.
const ACCESS_TOKEN_TTL = 8;
const SHORT_ABSENCE = 2_000;
const LONG_ABSENCE = 9_000;
// The page of another origin that the person goes to.
const ELSEWHERE = 'data:text/html,<title>Elsewhere</title><p>Elsewhere</p>';

/** What the demo showed at a `pageshow`: whether it came from the back/forward cache, and who it showed. */
interface Shown {
  readonly persisted: boolean;
  /** `Date.now()` at the event. */
  readonly at: number;
  readonly email: string | null;
  readonly meId: string | null;
  readonly signInForm: boolean;
  readonly restoring: boolean;
}

/** A request that carried an access token: when it went out by the page's clock, and the token's claims. */
interface Sent {
  readonly at: number;
  readonly exp: number;
  readonly jti: string;
}

interface PageRecord {
  readonly shows: Shown[];
  readonly sent: Sent[];
}

/**
 * The init script: records each `pageshow` with what the page showed at that moment, and each `fetch` that
 * carried a Bearer token with its `exp`; `nextIdle()` resolves when the page's requests next settle. Listeners
 * for the `mute` event types that the page's own scripts add afterwards are dropped, as in a browser that does
 * not fire them.
 */
function recordPage(mute: readonly string[]) {
  const record: PageRecord = { shows: [], sent: [] };
  (window as unknown as { bfcacheRecord: PageRecord }).bfcacheRecord = record;
  const text = (id: string) => document.querySelector(`[data-testid="${id}"]`)?.textContent ?? null;
  addEventListener('pageshow', (event) =>
    record.shows.push({
      persisted: event.persisted,
      at: Date.now(),
      email: text('user-email'),
      meId: text('me-id'),
      signInForm: document.querySelector('[data-testid="login-form"]') !== null,
      restoring: document.body?.innerText.includes('Restoring session') ?? false,
    }),
  );
  const pageFetch = window.fetch;
  let inFlight = 0;
  const idle: Array<() => void> = [];
  window.fetch = (input, init) => {
    const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined));
    const token = /^Bearer\s+(\S+)$/i.exec(headers.get('authorization') ?? '')?.[1];
    if (token) {
      const payload = token.split('.')[1]!.replace(/-/g, '+').replace(/_/g, '/');
      const claims = JSON.parse(atob(payload)) as { exp: number; jti: string };
      record.sent.push({ at: Date.now(), exp: claims.exp * 1000, jti: claims.jti });
    }
    inFlight++;
    return pageFetch(input, init).finally(() => {
      if (--inFlight === 0) for (const settled of idle.splice(0)) settled();
    });
  };
  (window as unknown as { nextIdle: () => Promise<void> }).nextIdle = () =>
    new Promise((resolve) => idle.push(resolve));
  if (!mute.length) return;
  const add = EventTarget.prototype.addEventListener;
  EventTarget.prototype.addEventListener = function (this: EventTarget, type, ...rest) {
    if (!mute.includes(type)) add.call(this, type, ...rest);
  };
}

let demo: Demo;
let browser: Browser;

beforeAll(async () => {
  demo = await startDemo({ port: 0, accessTokenTtl: ACCESS_TOKEN_TTL });
  // Playwright's own launch turns the back/forward cache off (`--disable-back-forward-cache`); a user's has it.
  browser = await chromium.launch(userBrowserLaunchOptions);
});

afterAll(async () => {
  await browser?.close();
  await demo?.close();
});

/**
 * A page of its own (its own cookie jar, closed when the test ends: its refreshes would count in the next test),
 * signed in, the server's counters reset; with Chromium's reasons whenever it does not restore the page from the
 * back/forward cache.
 */
async function signedInPage(options: { mute?: readonly string[] } = {}) {
  const context = await browser.newContext({ viewport: { width: 1100, height: 800 } });
  onTestFinished(() => context.close());
  const page = await context.newPage();
  await page.addInitScript(recordPage, options.mute ?? []);
  const notRestored: string[] = [];
  const cdp = await context.newCDPSession(page);
  await cdp.send('Page.enable');
  cdp.on('Page.backForwardCacheNotUsed', ({ notRestoredExplanations }) =>
    notRestored.push(...notRestoredExplanations.map(({ type, reason }) => `${reason} (${type})`)),
  );
  await page.goto(demo.url);
  await page.getByTestId('account-ADMIN').click();
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByTestId('me-id').waitFor();
  demo.server.resetStats();
  return { page, notRestored };
}

function recordOf(page: Page): Promise<PageRecord> {
  return page.evaluate(() => (window as unknown as { bfcacheRecord: PageRecord }).bfcacheRecord);
}

/** The refreshes the event log shows, oldest first, as `trigger → outcome`. */
function refreshes(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll('[data-testid="event-log"] li[data-trigger]')]
      .reverse()
      .map((item) => `${item.getAttribute('data-trigger')} → ${item.getAttribute('data-outcome')}`),
  );
}

/**
 * Goes to another page, stays there `absence` ms, and comes back with the back button. Resolves what the page
 * showed at the `pageshow` of the return, and when the return began.
 */
async function leaveAndComeBack(page: Page, absence: number, notRestored: readonly string[]) {
  // Chromium keeps no page that has a request on the wire when it is left (OutstandingNetworkRequestFetch), and
  // the demo's server counters ask for the lab's report every 500 ms: leave just after an answer, not during one.
  await page.evaluate(() => (window as unknown as { nextIdle: () => Promise<void> }).nextIdle());
  await page.goto(ELSEWHERE);
  await new Promise((resolve) => setTimeout(resolve, absence));
  const back = Date.now();
  // A page restored from the back/forward cache fires no `load`.
  await page.goBack({ waitUntil: 'commit' });
  // At once when restored; a page loaded anew shows itself after its `load`.
  await expect
    .poll(async () => (await recordOf(page).catch(() => undefined))?.shows.some((shown) => shown.at >= back), {
      timeout: 10_000,
    })
    .toBe(true);
  const shown = (await recordOf(page)).shows.at(-1)!;
  const reasons = await page.evaluate(() =>
    JSON.stringify(
      (performance.getEntriesByType('navigation')[0] as { notRestoredReasons?: unknown } | undefined)
        ?.notRestoredReasons ?? null,
    ),
  );
  expect(
    shown.persisted,
    `not restored from the back/forward cache: ${notRestored.join(', ')}; notRestoredReasons: ${reasons}`,
  ).toBe(true);
  return { shown, back };
}

/** What a person sees of the session the moment the page is back: the user, no sign-in form, no spinner. */
const SIGNED_IN = { email: 'admin@demo.test', meId: 'u_admin', signInForm: false, restoring: false };

/** Sends one query with the demo's button and waits for the answer on the screen. */
async function fireOneQuery(page: Page): Promise<void> {
  await page.getByTestId('burst-size').fill('1');
  await page.getByTestId('fire').click();
  await page
    .getByTestId('burst-result')
    .getByText(/^1 of 1 query succeeded/)
    .waitFor();
}

/** Every request with an access token went out before the token's `exp`, by the page's clock. */
function expectNoDeadTokenSent(sent: readonly Sent[]) {
  expect(sent.filter(({ at, exp }) => at >= exp)).toEqual([]);
}

describe('a page restored from the back/forward cache, in Chromium with the cache on', () => {
  it('back within the access token’s life: shows the user at once, and its first query goes out with the token it left with, no refresh', async () => {
    const { page, notRestored } = await signedInPage();
    const { sent: before } = await recordOf(page);
    const refreshesBefore = (await refreshes(page)).length;

    const { shown, back } = await leaveAndComeBack(page, SHORT_ABSENCE, notRestored);
    expect(shown).toMatchObject(SIGNED_IN);

    await fireOneQuery(page);
    const { sent } = await recordOf(page);
    const after = sent.filter(({ at }) => at >= back);
    expect(after).toHaveLength(1);
    expect(after[0]!.jti).toBe(before.at(-1)!.jti);
    expectNoDeadTokenSent(sent);
    expect(await refreshes(page)).toHaveLength(refreshesBefore);
    expect(demo.server.stats).toMatchObject({ tokenExpired: 0, refreshCalls: 0, loginCalls: 0, reuseDetections: 0 });
    expect(await page.getByTestId('me-id').textContent()).toBe('u_admin');
  });

  it('back after the access token died: shows the user at once, renews on the return, and its first query goes out with the new token', async () => {
    const { page, notRestored } = await signedInPage();
    const { sent: before } = await recordOf(page);
    const refreshesBefore = (await refreshes(page)).length;

    const { shown, back } = await leaveAndComeBack(page, LONG_ABSENCE, notRestored);
    expect(shown).toMatchObject(SIGNED_IN);

    await fireOneQuery(page);
    const { sent } = await recordOf(page);
    const after = sent.filter(({ at }) => at >= back);
    expect(after).toHaveLength(1);
    expect(after[0]!.jti).not.toBe(before.at(-1)!.jti);
    expectNoDeadTokenSent(sent);
    // Renewed because the page came back, once: the proactive timer, overdue in the frozen page, adds none.
    expect((await refreshes(page)).slice(refreshesBefore)).toEqual(['resume → rotated']);
    expect(demo.server.stats).toMatchObject({ tokenExpired: 0, refreshCalls: 1, loginCalls: 0, reuseDetections: 0 });
    expect(await page.getByTestId('me-id').textContent()).toBe('u_admin');
  });

  it('in a browser that fires no visibilitychange on the return, pageshow alone renews the session', async () => {
    // Chromium fires `visibilitychange` just before `pageshow` on a return. Without either, what renews the
    // session is the proactive timer, overdue in the frozen page, as the page thaws: 'proactive → rotated'.
    const { page, notRestored } = await signedInPage({ mute: ['visibilitychange'] });
    const refreshesBefore = (await refreshes(page)).length;

    const { shown } = await leaveAndComeBack(page, LONG_ABSENCE, notRestored);
    expect(shown).toMatchObject(SIGNED_IN);

    await fireOneQuery(page);
    expectNoDeadTokenSent((await recordOf(page)).sent);
    expect((await refreshes(page)).slice(refreshesBefore)).toEqual(['resume → rotated']);
    expect(demo.server.stats).toMatchObject({ tokenExpired: 0, refreshCalls: 1, loginCalls: 0 });
  });
});
