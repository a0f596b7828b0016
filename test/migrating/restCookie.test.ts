import { describe, expect, it, vi } from 'vitest';
import { ping, useCleanups } from '../helpers/overHttp';
import { browserFetch, REST_USERS, type RestServer, startCookieServer } from '../helpers/restServers';
import { createCookieJar } from '../helpers/tokenHandler';
import { createRestCookieClient as createAfter } from './after/restCookie';
import { createRestCookieClient as createBefore } from './before/restCookie';
import { itHandlesBursts, restCounts, useTestDate } from './burst';

// Shape (c) of docs/migrating.md, which quotes what these tests print: a REST refresh that reads the refresh token
// from the server's own HttpOnly cookie and rotates it, against restServers.ts's cookie server on 127.0.0.1 with the
// contract's 15-minute tokens. The browser is a `fetch` that keeps the cookies in a jar; test/e2e/restCookie.e2e.ts
// runs the after in Chromium.

const cleanups = useCleanups();
useTestDate();
const ADA = REST_USERS[0]!;

/** A user signed in with the old app: the server's cookie in the browser's jar. */
async function signedInBefore() {
  vi.stubGlobal('fetch', browserFetch({ jar: createCookieJar() }));
  cleanups.push(() => vi.unstubAllGlobals());
  const rest = await startCookieServer(cleanups, { clock: { now: () => Date.now() } });
  const page = createBefore(rest.url);
  await page.login(ADA.email, ADA.password);
  return { rest, ...page };
}

/** A page load of the new app in the same browser. */
function loadAfter(rest: RestServer) {
  const page = createAfter(rest.url);
  cleanups.push(() => page.auth.dispose());
  return page;
}

/** The same user once the new app shipped: its first page load restored the session from the cookie. */
async function signedInAfter() {
  const { rest } = await signedInBefore();
  const page = loadAfter(rest);
  await page.auth.getAccessToken();
  return { rest, ...page };
}

async function signedIn(app: 'before' | 'after') {
  const { rest, client } = app === 'before' ? await signedInBefore() : await signedInAfter();
  return { client, counts: restCounts(rest), expireTokens: () => rest.service.expireAccessTokens() };
}

describe("migrating a REST refresh with the refresh token in the server's cookie: a page load", () => {
  it('before: a query sent while restore() is out goes without a token and fails; the app must hold its screens', async () => {
    const { rest } = await signedInBefore();
    const refreshes = rest.stats.refreshes;
    const page = createBefore(rest.url);

    const restoring = page.restore();
    const early = ping(page.client, 1).catch((error: unknown) => String(error));

    await expect(early).resolves.toBe('CombinedGraphQLErrors: Not authenticated');
    await expect(restoring).resolves.toBe(true);
    await expect(ping(page.client, 2)).resolves.toMatchObject({ data: { ping: 2 } });
    expect(rest.stats.refreshes - refreshes).toBe(1);
  });

  it('after: the session restores itself with one refresh, and a query sent meanwhile waits for it', async () => {
    const { rest } = await signedInBefore();
    const refreshes = rest.stats.refreshes;
    const page = loadAfter(rest);

    expect(page.auth.getState().status).toBe('loading');
    await expect(ping(page.client, 1)).resolves.toMatchObject({ data: { ping: 1 } });
    expect(page.auth.getState()).toMatchObject({
      status: 'authenticated',
      user: { id: '7', email: ADA.email, roles: ['admin', 'editor'] },
    });
    expect(rest.stats.refreshes - refreshes).toBe(1);
    expect(rest.stats.logins).toBe(1);
  });
});

describe("migrating a REST refresh with the refresh token in the server's cookie: 10 queries at once", () => {
  itHandlesBursts('REST cookie', signedIn, 'CombinedGraphQLErrors: jwt expired');
});
