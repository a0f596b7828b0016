import { describe, expect, it } from 'vitest';
import { ping, useCleanups } from '../helpers/overHttp';
import { createTokenPairClient } from './after/graphqlLocalStorage';
import { createTokenRefreshLinkClient } from './before/graphqlLocalStorage';
import {
  itHandlesBursts,
  memoryStorage,
  passExpiry,
  signedInWith,
  specCounts,
  startServer,
  useTestDate,
} from './burst';

// Shape (a) of docs/migrating.md, which quotes what these tests print: apollo-link-token-refresh with the contract's
// refresh mutation and the pair in localStorage, against the spec's test server (single-use refresh tokens). The
// "before" runs a port of the link to Apollo Client 4 (before/TokenRefreshLink.ts): the library needs Apollo Client 3.

const cleanups = useCleanups();
useTestDate();
const ADMIN = { email: 'admin@demo.test', role: 'ADMIN' };

/** A user signed in with the old app: its pair in localStorage. */
const signedInBefore = () => signedInWith(cleanups, createTokenRefreshLinkClient);

/** The new app's first start where the old one left its pair. */
function firstStart(url: string, storage: Parameters<typeof createTokenPairClient>[1]) {
  const app = createTokenPairClient(url, storage);
  cleanups.push(() => app.auth.dispose());
  return app;
}

async function signedIn(app: 'before' | 'after') {
  const { server, url, storage, client } = await signedInBefore();
  const counts = specCounts(server);
  const expireTokens = () => server.expireAllAccessTokens();
  if (app === 'before') return { client, counts, expireTokens };
  const after = firstStart(url, storage);
  await after.restored;
  return { client: after.client, counts, expireTokens };
}

describe('migrating a GraphQL refresh with the pair in localStorage: the first start of the new app', () => {
  it('adopts the stored pair with no request while its access token lives, and empties localStorage', async () => {
    const { server, url, storage } = await signedInBefore();
    const stored = storage.getItem('accessToken');
    const { auth, client, restored } = firstStart(url, storage);

    await expect(restored).resolves.toMatchObject(ADMIN);
    expect(auth.getState().status).toBe('authenticated');
    expect(storage.keys()).toEqual([]);
    expect(server.stats).toMatchObject({ loginCalls: 1, refreshCalls: 0 });
    await expect(ping(client, 1)).resolves.toMatchObject({ data: { ping: 1 } });
    expect(server.stats.authorizationHeaders.at(-1)).toBe(`Bearer ${stored}`);
  });

  it('renews a stored pair whose access token died with one refresh, spending its refresh token once', async () => {
    const { server, url, storage } = await signedInBefore();
    passExpiry();
    const { client, restored } = firstStart(url, storage);

    await expect(restored).resolves.toMatchObject(ADMIN);
    expect(server.stats).toMatchObject({ refreshCalls: 1, refreshSuccesses: 1, reuseDetections: 0 });
    await expect(ping(client, 1)).resolves.toMatchObject({ data: { ping: 1 } });
    expect(server.stats.refreshCalls).toBe(1);
  });

  it('starts signed out, with no request, when localStorage holds no pair', async () => {
    const { server, url } = await startServer(cleanups);
    const { auth, restored } = firstStart(url, memoryStorage());

    await expect(restored).resolves.toBeNull();
    expect(auth.getState().status).toBe('unauthenticated');
    expect(server.stats).toMatchObject({ loginCalls: 0, refreshCalls: 0, requests: 0 });
  });
});

describe('migrating a GraphQL refresh with the pair in localStorage: 10 queries at once', () => {
  itHandlesBursts('TokenRefreshLink', signedIn, 'CombinedGraphQLErrors: Access token expired');

  it('before: a token the server refused fails until it is past its exp by the device clock, then one refresh', async () => {
    const { server, client } = await signedInBefore();
    server.expireAllAccessTokens();
    await expect(ping(client, 1)).rejects.toThrow('Access token expired');
    expect(server.stats.refreshCalls).toBe(0);

    passExpiry();

    await expect(ping(client, 2)).resolves.toMatchObject({ data: { ping: 2 } });
    expect(server.stats.refreshCalls).toBe(1);
  });
});

describe('apollo-link-token-refresh itself on Apollo Client 4', () => {
  it('cannot run: its request() returns fromPromise(…).flatMap(…), and Apollo Client 4 has neither', async () => {
    // tokenRefreshLink.ts 0.7.0 imports fromPromise from '@apollo/client/core': an ES module build stops at that
    // import, a CommonJS one at the first request. Apollo Client 4's Observable is rxjs's, which has no flatMap.
    const core = await import('@apollo/client/core');
    expect('fromPromise' in core).toBe(false);
    expect('flatMap' in core.Observable.prototype).toBe(false);
  });
});
