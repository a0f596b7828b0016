import type { BrowserContext, Page } from 'playwright-core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useDemoInChromium, useDemoWithMovableClock } from './browser';

const session = useDemoInChromium();
const COOKIE = '__Host-token-pair';
const contexts: BrowserContext[] = [];

afterEach(async () => {
  await Promise.all(contexts.splice(0).map((context) => context.close()));
});

/** A browser context of its own (its own cookie jar), closed after the test, whose pages record what they show. */
async function isolatedContext(): Promise<BrowserContext> {
  const context = await session.browser.newContext({ viewport: { width: 1100, height: 760 } });
  contexts.push(context);
  await recordAppearances(context);
  return context;
}

/**
 * Makes every document of `context` record, from its very first node, which of the watched test ids were ever
 * inserted: an element that showed for a moment and went away counts, as the records keep the nodes added.
 */
async function recordAppearances(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const ids = ['login-form', 'me-id'];
    const seen: string[] = [];
    (window as unknown as { __seen: string[] }).__seen = seen;
    const look = (node: Node) => {
      if (!(node instanceof Element)) return;
      for (const id of ids) {
        const selector = `[data-testid="${id}"]`;
        if (!seen.includes(id) && (node.matches(selector) || node.querySelector(selector))) seen.push(id);
      }
    };
    new MutationObserver((records) => {
      for (const record of records) record.addedNodes.forEach(look);
    }).observe(document, { childList: true, subtree: true });
  });
}

/** The test ids the current document of `page` has shown since it started loading. */
const seenOn = (page: Page) => page.evaluate(() => (window as unknown as { __seen: string[] }).__seen.slice());

async function signIn(page: Page, account: 'ADMIN' | 'Cashier' = 'ADMIN'): Promise<void> {
  await page.goto(session.demo.url);
  await page.getByTestId(`account-${account}`).click();
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByTestId('me-id').waitFor();
}

async function fire(page: Page, count: number): Promise<void> {
  await page.getByTestId('burst-size').fill(String(count));
  await page.getByTestId('fire').click();
  await page.getByTestId('burst-result').getByText(`${count} of ${count} queries succeeded`).waitFor();
}

/** The POSTs `page` sends to `/auth/refresh` from now on. */
function countRefreshPosts(page: Page): { count: number } {
  const seen = { count: 0 };
  page.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname === '/auth/refresh') seen.count += 1;
  });
  return seen;
}

/**
 * Everything a script of the page can read: `document.cookie`, every localStorage and sessionStorage entry,
 * every key and value of every IndexedDB object store, and every Cache Storage entry.
 */
function readPageStorage(page: Page): Promise<string> {
  return page.evaluate(async () => {
    const settle = <T>(request: IDBRequest<T>) =>
      new Promise<T>((resolve, reject) => {
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
    const parts = [`document.cookie: ${document.cookie}`];
    for (const [label, storage] of [
      ['localStorage', localStorage],
      ['sessionStorage', sessionStorage],
    ] as const) {
      for (let i = 0; i < storage.length; i++)
        parts.push(`${label}: ${storage.key(i)}=${storage.getItem(storage.key(i)!)}`);
    }
    for (const { name, version } of await indexedDB.databases()) {
      if (!name) continue;
      const db = await settle(indexedDB.open(name, version));
      for (const storeName of Array.from(db.objectStoreNames)) {
        const store = db.transaction(storeName, 'readonly').objectStore(storeName);
        const [keys, values] = await Promise.all([settle(store.getAllKeys()), settle(store.getAll())]);
        parts.push(`indexedDB ${name}/${storeName}: ${JSON.stringify(keys)} ${JSON.stringify(values)}`);
      }
      db.close();
    }
    for (const cacheName of await caches.keys()) {
      const cache = await caches.open(cacheName);
      for (const request of await cache.keys())
        parts.push(`cache ${cacheName} ${request.url}: ${await (await cache.match(request))?.text()}`);
    }
    return parts.join('\n');
  });
}

/** Puts a marker in each storage that {@link readPageStorage} reads, so that a reader that misses one fails. */
function plantMarkers(page: Page): Promise<void> {
  return page.evaluate(async () => {
    localStorage.setItem('e2e-marker', 'marker-local');
    sessionStorage.setItem('e2e-marker', 'marker-session');
    const open = indexedDB.open('e2e-marker', 1);
    open.onupgradeneeded = () => open.result.createObjectStore('things');
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error);
    });
    const tx = db.transaction('things', 'readwrite');
    tx.objectStore('things').put('marker-indexeddb', 'k');
    await new Promise((resolve) => (tx.oncomplete = resolve));
    db.close();
  });
}

describe('the demo in token-handler mode, in Chromium', () => {
  it('says where each token lives: the access token in memory, the refresh token in an HttpOnly cookie', async () => {
    const page = await session.context.newPage();
    await signIn(page);
    const where = page.getByTestId('token-locations');
    expect(await where.isVisible()).toBe(true);
    expect(await page.getByTestId('access-token-location').innerText()).toMatch(/memory/i);
    expect(await page.getByTestId('refresh-token-location').innerText()).toMatch(/HttpOnly.*cookie/i);
    expect(await where.innerText()).toMatch(/memory[\s\S]*HttpOnly[\s\S]*cookie/i);
    await page.close();
  });

  it('log in → reload → still signed in, and the login form never shows; a new tab after closing all tabs too', async () => {
    const context = await isolatedContext();
    session.demo.server.resetStats();
    const page = await context.newPage();
    await page.goto(session.demo.url);
    await page.getByTestId('login-form').waitFor();
    // The recorder sees a login form when there is one: signed out, it does.
    expect(await seenOn(page)).toContain('login-form');
    await signIn(page);
    expect(session.demo.server.stats.loginCalls).toBe(1);

    const posts = countRefreshPosts(page);
    await page.reload();
    await page.getByTestId('me-id').waitFor();
    expect(await page.getByTestId('me-id').textContent()).toBe('u_admin');
    expect(await seenOn(page)).toEqual(['me-id']);
    // One call to the handler restores the page; the cookie's access token is still fresh, so none upstream.
    expect(posts.count).toBe(1);
    expect(session.demo.server.stats).toMatchObject({ loginCalls: 1, refreshCalls: 0 });

    for (const open of context.pages()) await open.close();
    expect(context.pages()).toHaveLength(0);
    const tab = await context.newPage();
    await tab.goto(session.demo.url);
    await tab.getByTestId('me-id').waitFor();
    expect(await tab.getByTestId('role').textContent()).toBe('ADMIN');
    expect(await seenOn(tab)).toEqual(['me-id']);
    expect(session.demo.server.stats.loginCalls).toBe(1);
  });

  it('keeps every refresh token out of page-reachable storage and answers, before and after a rotation', async () => {
    const context = await isolatedContext();
    session.demo.server.resetStats();
    const page = await context.newPage();
    const answers: Promise<string>[] = [];
    page.on('response', (response) => {
      if (new URL(response.url()).pathname.startsWith('/auth/')) answers.push(response.text().catch(() => ''));
    });
    await signIn(page);
    await plantMarkers(page);

    const issued = session.demo.server.stats.refreshTokensIssued;
    const expectNoRefreshTokenReachable = async () => {
      expect(issued.length).toBeGreaterThan(0);
      const storage = await readPageStorage(page);
      // The reader sees every kind of storage it claims to.
      for (const marker of ['marker-local', 'marker-session', 'marker-indexeddb']) expect(storage).toContain(marker);
      const bodies = await Promise.all(answers);
      expect(bodies.length).toBeGreaterThan(0);
      const cookies = await context.cookies();
      const jar = cookies.find((cookie) => cookie.name === COOKIE);
      expect(jar).toMatchObject({ httpOnly: true, secure: true, sameSite: 'Strict', path: '/' });
      for (const token of issued) {
        expect(storage).not.toContain(token);
        for (const body of bodies) expect(body).not.toContain(token);
        // Sealed: the cookie does not carry the token in the clear either.
        expect(jar!.value).not.toContain(token);
      }
      expect(storage).not.toContain(COOKIE);
      expect(await page.evaluate(() => document.cookie)).not.toContain(COOKIE);
    };

    await expectNoRefreshTokenReachable();
    expect(issued).toHaveLength(1);

    session.demo.server.expireAllAccessTokens();
    await fire(page, 5);
    expect(session.demo.server.stats).toMatchObject({ refreshSuccesses: 1, reuseDetections: 0 });
    expect(issued).toHaveLength(2);
    await expectNoRefreshTokenReachable();
  });

  it('two tabs, forced expiry, requests in both, reload both → one upstream refresh and no reuse', async () => {
    const context = await isolatedContext();
    const first = await context.newPage();
    await signIn(first);
    const second = await context.newPage();
    await second.goto(session.demo.url);
    await second.getByTestId('me-id').waitFor();
    expect(await seenOn(second)).toEqual(['me-id']);

    session.demo.server.resetStats();
    session.demo.server.expireAllAccessTokens();
    await Promise.all([fire(first, 15), fire(second, 15)]);
    await Promise.all([first.reload(), second.reload()]);
    await Promise.all([first.getByTestId('me-id').waitFor(), second.getByTestId('me-id').waitFor()]);
    expect(await seenOn(first)).toEqual(['me-id']);
    expect(await seenOn(second)).toEqual(['me-id']);
    expect(session.demo.server.stats).toMatchObject({
      loginCalls: 0,
      refreshCalls: 1,
      refreshSuccesses: 1,
      reuseDetections: 0,
    });
  });

  /** The page shows the login form, and nothing signed in since this document started, for a second more. */
  async function expectSignedOut(page: Page, context: BrowserContext): Promise<void> {
    await page.getByTestId('login-form').waitFor({ timeout: 5000 });
    await page.waitForTimeout(1000);
    expect(await page.getByTestId('login-form').isVisible()).toBe(true);
    expect(await seenOn(page)).toEqual(['login-form']);
    // The upstream was told, and the handler refuses whatever cookie is left.
    await vi.waitFor(() => expect(session.demo.server.stats.logoutCalls).toBeGreaterThanOrEqual(1), { timeout: 3000 });
    const answer = await page.evaluate(async () => {
      const response = await fetch('/auth/refresh', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-token-handler': '1' },
        body: '{}',
      });
      return { status: response.status, body: await response.json() };
    });
    // No cookie left (200 NO_SESSION), or one the handler knows was logged out (401 SESSION_ENDED): no token either way.
    expect(answer.body.accessToken ?? null).toBeNull();
    expect([answer.status, answer.body.error.code]).toEqual(
      answer.status === 200 ? [200, 'NO_SESSION'] : [401, 'SESSION_ENDED'],
    );
    expect((await context.cookies()).filter((cookie) => cookie.name === COOKIE)).toEqual([]);
  }

  it('log out → reload → signed out', async () => {
    const context = await isolatedContext();
    session.demo.server.resetStats();
    const page = await context.newPage();
    await signIn(page);
    await page.getByTestId('logout').click();
    await page.getByTestId('login-form').waitFor();
    await page.reload();
    await expectSignedOut(page, context);
  });

  it('log out and reload at once after the click → signed out, four times over', async () => {
    const context = await isolatedContext();
    const page = await context.newPage();
    const aborted: string[] = [];
    page.on('requestfailed', (request) => void aborted.push(new URL(request.url()).pathname));
    // With a slow upstream the reload cuts the /auth/logout request off before its answer clears the cookie:
    // the next page load presents a cookie whose session was logged out, and must not be handed its token.
    const upstreamLogoutDelays = [0, 400, 0, 400];
    try {
      for (const delay of upstreamLogoutDelays) {
        session.demo.server.resetStats();
        session.demo.server.faults.delayMs['logout'] = delay;
        await signIn(page, delay ? 'Cashier' : 'ADMIN');
        await page.getByTestId('logout').click();
        await page.reload();
        await expectSignedOut(page, context);
      }
    } finally {
      delete session.demo.server.faults.delayMs['logout'];
    }
    // The slow rounds did race: the reload aborted the logout request.
    expect(aborted).toContain('/auth/logout');
  });
});

describe('a logout whose answer never reached the browser, with 10-minute access tokens', () => {
  // A clock this test can move on, instead of waiting out the handler's 30-second grace time.
  const clock = useDemoWithMovableClock({ accessTokenTtl: 600 });

  it('a tab opened a minute later is not handed the logged-out session', async () => {
    const context = await isolatedContext();
    const page = await context.newPage();
    await page.goto(clock.demo.url);
    await page.getByTestId('account-ADMIN').click();
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByTestId('me-id').waitFor();

    // The tab closes right after the click, while the slow upstream holds /auth/logout up.
    const [saved] = (await context.cookies()).filter((cookie) => cookie.name === COOKIE);
    expect(saved).toBeDefined();
    clock.demo.server.faults.delayMs['logout'] = 400;
    await page.getByTestId('logout').click();
    await page.close();
    await vi.waitFor(() => expect(clock.demo.server.stats.logoutCalls).toBe(1));
    await new Promise((resolve) => setTimeout(resolve, 600));
    // The logout is sent with keepalive: its answer still cleared the cookie after the tab was gone.
    expect((await context.cookies()).map((cookie) => cookie.name)).not.toContain(COOKIE);
    // An answer that never arrived (a network cut) would have left the cookie in place: put it back.
    await context.addCookies([saved!]);

    clock.skew = 60_000;
    const tab = await context.newPage();
    const restores: number[] = [];
    tab.on('response', (response) => {
      if (new URL(response.url()).pathname === '/auth/refresh') restores.push(response.status());
    });
    await tab.goto(clock.demo.url);
    await tab.getByTestId('login-form').waitFor({ timeout: 5000 });
    await tab.waitForTimeout(1000);
    expect(await seenOn(tab)).toEqual(['login-form']);
    // The first page-load refresh is refused: the handler never hands out the logged-out session's access token.
    expect(restores[0]).toBe(401);
    // Nobody was told the session "ended (rejected)": it was logged out.
    expect(await tab.getByRole('alert').count()).toBe(0);
  });
});
