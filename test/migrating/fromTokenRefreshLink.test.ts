import { afterEach, describe, expect, it, vi } from 'vitest';
import { ping, useCleanups } from '../helpers/overHttp';
import { createTokenPairClient } from './after/tokenPair';
import { createTokenRefreshLinkClient } from './before/tokenRefreshLinkApp';
import { burst, describeBurst, memoryStorage, startServer } from './burst';

// docs/migrating.md quotes what these tests print. The "before" runs a port of apollo-link-token-refresh to Apollo
// Client 4 (before/TokenRefreshLink.ts): the library itself needs Apollo Client 3.

const cleanups = useCleanups();
afterEach(() => {
  vi.useRealTimers();
});

/** The two apps, each signed in against a server of its own. */
async function signedIn(app: 'before' | 'after') {
  const { server, url } = await startServer(cleanups);
  if (app === 'before') {
    const { client, login } = createTokenRefreshLinkClient(url, memoryStorage());
    await login('admin@demo.test', 'admin-pass');
    return { server, client };
  }
  const { client, auth, login } = createTokenPairClient(url);
  cleanups.push(() => auth.dispose());
  await login('admin@demo.test', 'admin-pass');
  return { server, client };
}

/** Both the server and the app see the access token past its `exp` (16 minutes later, for 15-minute tokens). */
function passExpiry() {
  vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
  vi.setSystemTime(Date.now() + 16 * 60_000);
}

describe('migrating from apollo-link-token-refresh: 10 queries at once', () => {
  it('before, the server refuses the token (TOKEN_EXPIRED before exp): no refresh, and the 10 queries fail', async () => {
    const { server, client } = await signedIn('before');
    server.expireAllAccessTokens();

    const outcome = await burst(client, server);
    console.info(describeBurst('before, TokenRefreshLink, token refused by the server', outcome));

    // The link decides by the client's clock alone; the server's TOKEN_EXPIRED passes through to the app.
    expect(outcome.refreshCalls).toBe(0);
    expect(outcome.failed).toBe(10);
    expect(outcome.nextQueryOk).toBe(false);

    // It keeps failing until the token's exp passes by this device's clock; then one refresh brings it back.
    passExpiry();
    await expect(ping(client, 11)).resolves.toMatchObject({ data: { ping: 11 } });
    expect(server.stats.refreshCalls).toBe(1);
  });

  it('after, the server refuses the token: one refresh, and the 10 queries succeed', async () => {
    const { server, client } = await signedIn('after');
    server.expireAllAccessTokens();

    const outcome = await burst(client, server);
    console.info(describeBurst('after, token refused by the server', outcome));

    expect(outcome).toMatchObject({ succeeded: 10, failed: 0, refreshCalls: 1, refreshSuccesses: 1 });
    expect(outcome).toMatchObject({ reuseDetections: 0, nextQueryOk: true });
  });

  it.each(['before', 'after'] as const)(
    '%s, the token is past its exp by the clock: one refresh, and the 10 queries succeed',
    async (app) => {
      const { server, client } = await signedIn(app);
      passExpiry();

      const outcome = await burst(client, server);
      console.info(describeBurst(`${app}, token past its exp`, outcome));

      expect(outcome).toMatchObject({ succeeded: 10, failed: 0, refreshCalls: 1, refreshSuccesses: 1 });
      expect(outcome).toMatchObject({ reuseDetections: 0, nextQueryOk: true });
    },
  );
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
