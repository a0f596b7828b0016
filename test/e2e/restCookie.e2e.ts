import { build } from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useCleanups } from '../helpers/overHttp';
import { REFRESH_COOKIE, type RestServer, startCookieServer } from '../helpers/restServers';
import { launchChromium } from './browser';

const cleanups = useCleanups();
let browser: Browser;
let script: string;

beforeAll(async () => {
  browser = await launchChromium();
  const bundle = await build({
    entryPoints: [new URL('./fixtures/restCookiePage.ts', import.meta.url).pathname],
    alias: { 'apollo-link-token-pair': new URL('../../src/index.ts', import.meta.url).pathname },
    bundle: true,
    platform: 'browser',
    format: 'esm',
    write: false,
    logLevel: 'silent',
  });
  script = bundle.outputFiles[0]!.text;
});
afterAll(async () => {
  await browser?.close();
});

const PAGE = `<!doctype html><title>REST cookie session</title>
<p id="status">…</p><button id="sign-in">Sign in</button><button id="sign-out">Sign out</button>
<button id="me">Who am I</button><pre id="answer"></pre><script type="module" src="/app.js"></script>`;

/** The cookie server of restServers.ts on the real clock, serving the page and its script on its own origin. */
function startSite(options: { rotate?: boolean; accessTokenTtl?: number } = {}): Promise<RestServer> {
  return startCookieServer(cleanups, {
    clock: { now: () => Date.now() },
    ...options,
    routes: {
      'GET /': (_req, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE),
      'GET /app.js': (_req, res) => void res.writeHead(200, { 'content-type': 'text/javascript' }).end(script),
    },
  });
}

/** The text of every answer `page` reads from its own origin, as it came. */
function answersOf(page: Page): string[] {
  const bodies: string[] = [];
  page.on('response', async (response) => {
    if (response.request().resourceType() === 'fetch') bodies.push(await response.text().catch(() => ''));
  });
  return bodies;
}

/** The POSTs `page` sends to /auth/refresh from now on. */
function refreshesOf(page: Page): { count: number } {
  const seen = { count: 0 };
  page.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname === '/auth/refresh') seen.count += 1;
  });
  return seen;
}

/** What a script of the page can read: `document.cookie`, every localStorage and sessionStorage entry. */
const readableStorage = (page: Page) =>
  page.evaluate(() =>
    [
      `document.cookie: ${document.cookie}`,
      ...[localStorage, sessionStorage].flatMap((storage) =>
        Array.from({ length: storage.length }, (_, i) => `${storage.key(i)}=${storage.getItem(storage.key(i)!)}`),
      ),
    ].join('\n'),
  );

const status = (page: Page, text: string) => page.locator('#status', { hasText: text }).waitFor();

describe("createRestTransport({ refreshTokenIn: 'cookie' }) in Chromium, against a REST server's HttpOnly cookie", () => {
  it('sign in, reload (one refresh, still signed in), sign out; the page can read no refresh token', async () => {
    const site = await startSite();
    const context = await browser.newContext();
    cleanups.push(() => context.close());
    const page = await context.newPage();
    const bodies = answersOf(page);
    await page.goto(site.url);
    await status(page, 'unauthenticated');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await status(page, 'signed in as ada@example.test');

    const refreshes = refreshesOf(page);
    await page.reload();
    await status(page, 'signed in as ada@example.test');
    expect(refreshes.count).toBe(1);
    await page.getByRole('button', { name: 'Who am I' }).click();
    await page.locator('#answer', { hasText: 'ada@example.test' }).waitFor();

    // The browser holds the refresh token, in a cookie no script can read.
    const cookie = (await context.cookies()).find((each) => each.name === REFRESH_COOKIE);
    expect(cookie).toMatchObject({ httpOnly: true, value: site.service.refreshTokens.at(-1) });
    const readable = [await readableStorage(page), ...bodies].join('\n');
    expect(bodies.length).toBeGreaterThanOrEqual(3);
    for (const token of site.service.refreshTokens) expect(readable).not.toContain(token);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await status(page, 'unauthenticated');
    expect((await context.cookies()).some((each) => each.name === REFRESH_COOKIE)).toBe(false);
    await page.reload();
    await status(page, 'unauthenticated');
    expect(site.stats.logouts).toBe(1);
  });

  it('two tabs follow one sign-in, and renew a rotating cookie one at a time: no reuse, both stay signed in', async () => {
    // 10-second access tokens: the tabs follow one token, so their timers fall due together.
    const site = await startSite({ rotate: true, accessTokenTtl: 10 });
    const context = await browser.newContext();
    cleanups.push(() => context.close());
    const [first, second] = [await context.newPage(), await context.newPage()];
    for (const page of [first!, second!]) {
      await page.goto(site.url);
      await status(page, 'unauthenticated');
    }
    await first!.getByRole('button', { name: 'Sign in' }).click();
    await status(second!, 'signed in as ada@example.test');
    const issued = site.service.refreshTokens.length;
    // Two renewals of the pair: each tab's timer fell due twice.
    await expect
      .poll(() => site.service.refreshTokens.length - issued, { timeout: 30_000, interval: 200 })
      .toBeGreaterThanOrEqual(2);
    expect(site.stats.refusals).toBe(0);
    for (const page of [first!, second!]) {
      await page.getByRole('button', { name: 'Who am I' }).click();
      await page.locator('#answer', { hasText: 'ada@example.test' }).waitFor();
      expect(await page.locator('#status').innerText()).toBe('signed in as ada@example.test');
    }
  });
});
