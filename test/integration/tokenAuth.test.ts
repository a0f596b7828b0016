import { gql } from '@apollo/client';
import { describe, expect, it, vi } from 'vitest';
import {
  AuthRejectedError,
  AuthRequestError,
  createMemoryTokenStore,
  createTokenAuth,
  SessionEndedError,
  type TokenAuth,
  type TokenAuthOptions,
  type TokenStore,
} from '../../src';
import type { AuthServer, AuthServerOptions } from '../../demo/server/createAuthServer';
import { clientFor, ping, startDemoServer, useCleanups } from '../helpers/overHttp';

const ME = gql`
  query Me {
    me {
      id
      email
    }
  }
`;

const cleanups = useCleanups();

/** The real demo server on an ephemeral port, with a clock the test can move. */
async function startServer(options: AuthServerOptions = {}) {
  const clock = { offset: 0 };
  const server = await startDemoServer(cleanups, { now: () => Date.now() + clock.offset, ...options });
  return { server, clock };
}

function connect(server: AuthServer, options: Partial<TokenAuthOptions> = {}) {
  const auth = createTokenAuth({ uri: server.url, ...options });
  const client = clientFor(auth.link, server.url);
  cleanups.push(() => auth.dispose());
  return { auth, client };
}

async function settleAll<T>(promises: Array<Promise<T>>) {
  const results = await Promise.allSettled(promises);
  return {
    fulfilled: results
      .filter((r): r is PromiseFulfilledResult<Awaited<T>> => r.status === 'fulfilled')
      .map((r) => r.value),
    rejected: results
      .filter((r): r is PromiseRejectedResult => r.status === 'rejected')
      .map((r) => r.reason as unknown),
  };
}

describe('against the demo server over HTTP', () => {
  it('logs in, sends the access token with every operation, and knows the role', async () => {
    const { server } = await startServer();
    const { auth, client } = connect(server);
    const { user } = await auth.login('cashier@demo.test', 'cashier-pass');
    expect(user).toMatchObject({ email: 'cashier@demo.test', role: 'Cashier' });
    expect(auth.getState()).toMatchObject({ status: 'authenticated', user: { role: 'Cashier' } });
    expect(auth.getState().user!.claims.clubPermissions).toEqual(['sales.read', 'sales.write']);
    const { data } = await client.query({ query: ME });
    expect(data).toMatchObject({ me: { email: 'cashier@demo.test' } });
    const token = await auth.getAccessToken();
    expect(server.stats.authorizationHeaders.at(-1)).toBe(`Bearer ${token}`);
  });

  it('rejects bad credentials with INVALID_CREDENTIALS and stays signed out', async () => {
    const { server } = await startServer();
    const { auth } = connect(server);
    const error = await auth.login('admin@demo.test', 'wrong').catch((e: unknown) => e);
    expect(AuthRejectedError.is(error)).toBe(true);
    expect(error).toMatchObject({ code: 'INVALID_CREDENTIALS' });
    expect(auth.getState().status).toBe('unauthenticated');
  });

  it('50 concurrent operations on an expired token: exactly one refresh and 50 successes', async () => {
    const { server } = await startServer();
    const { auth, client } = connect(server);
    await auth.login('admin@demo.test', 'admin-pass');
    server.expireAllAccessTokens();
    server.resetStats();
    const { fulfilled, rejected } = await settleAll(Array.from({ length: 50 }, (_, i) => ping(client, i)));
    expect(rejected).toEqual([]);
    expect(fulfilled.map((r) => (r.data as { ping: number }).ping).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 50 }, (_, i) => i),
    );
    expect(server.stats).toMatchObject({ refreshCalls: 1, refreshSuccesses: 1, reuseDetections: 0, tokenExpired: 50 });
  });

  it('a second wave of failures that arrive after the rotation causes no second refresh', async () => {
    const { server } = await startServer();
    const { auth, client } = connect(server);
    await auth.login('admin@demo.test', 'admin-pass');
    server.expireAllAccessTokens();
    server.resetStats();
    // `me` answers 300 ms late, so its TOKEN_EXPIRED comes back after the pings' refresh completed.
    server.faults.delayMs.me = 300;
    const slow = client.query({ query: ME, fetchPolicy: 'network-only' });
    const fast = Array.from({ length: 10 }, (_, i) => ping(client, i));
    const { rejected } = await settleAll([slow, ...fast]);
    expect(rejected).toEqual([]);
    expect(server.stats).toMatchObject({ refreshCalls: 1, reuseDetections: 0, tokenExpired: 11 });
  });

  it('a rejected refresh errors every waiting operation and ends the session', async () => {
    const { server } = await startServer();
    const store = createMemoryTokenStore();
    const onSessionEnd = vi.fn();
    const { auth, client } = connect(server, { store, onSessionEnd });
    await auth.login('admin@demo.test', 'admin-pass');
    // Someone else spends the refresh token first.
    const { refreshToken } = (await store.get())!;
    await fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        query: 'mutation($t: String!) { refreshToken(token: $t) { accessToken } }',
        variables: { t: refreshToken },
      }),
    });
    server.expireAllAccessTokens();
    server.resetStats();
    const { fulfilled, rejected } = await settleAll(Array.from({ length: 20 }, (_, i) => ping(client, i)));
    expect(fulfilled).toEqual([]);
    expect(rejected).toHaveLength(20);
    for (const error of rejected) expect(SessionEndedError.is(error)).toBe(true);
    expect(server.stats).toMatchObject({ refreshCalls: 1, reuseDetections: 1 });
    expect(auth.getState().status).toBe('unauthenticated');
    expect(await store.get()).toBeNull();
    expect(onSessionEnd).toHaveBeenCalledTimes(1);
  });

  it('logout revokes both tokens on the server and clears the store', async () => {
    const { server } = await startServer();
    const store = createMemoryTokenStore();
    const { auth, client } = connect(server, { store });
    await auth.login('owner@demo.test', 'owner-pass');
    const pair = (await store.get())!;
    await auth.logout();
    expect(server.stats.logoutCalls).toBe(1);
    expect(auth.getState().status).toBe('unauthenticated');
    expect(await store.get()).toBeNull();
    const direct = await fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${pair.accessToken}` },
      body: JSON.stringify({ query: '{ me { id } }' }),
    }).then((r) => r.json());
    expect(direct.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    // After logout, operations go out without a token.
    await client.query({ query: ME, fetchPolicy: 'network-only' }).catch(() => undefined);
    expect(server.stats.authorizationHeaders.at(-1)).toBe('');
  });

  it('restores a session from a pre-filled store and knows the role without logging in', async () => {
    const { server } = await startServer();
    const pair = await server.issueTokens('cashier@demo.test');
    const { auth, client } = connect(server, { store: createMemoryTokenStore(pair) });
    // A synchronous store is read at once: no 'loading'.
    expect(auth.getState().status).toBe('authenticated');
    const { data } = await client.query({ query: ME });
    expect(data).toMatchObject({ me: { email: 'cashier@demo.test' } });
    expect(auth.getState()).toMatchObject({ status: 'authenticated', user: { role: 'Cashier' } });
    expect(server.stats).toMatchObject({ loginCalls: 0, refreshCalls: 0 });
  });

  it('refreshes a restored pair whose access token is dead before the first operation goes out', async () => {
    const { server, clock } = await startServer();
    clock.offset = -20 * 60_000;
    const pair = await server.issueTokens('admin@demo.test');
    clock.offset = 0;
    const statuses: string[] = [];
    const { auth, client } = connect(server, { store: createMemoryTokenStore(pair) });
    auth.subscribe(() => statuses.push(auth.getState().status));
    const { data } = await client.query({ query: ME });
    expect(data).toMatchObject({ me: { email: 'admin@demo.test' } });
    expect(server.stats).toMatchObject({ refreshCalls: 1, tokenExpired: 0 });
    expect(statuses).toEqual(['authenticated']);
  });

  it('refreshes proactively before expiry, so no operation meets TOKEN_EXPIRED', async () => {
    const { server } = await startServer({ accessTokenTtl: 2 });
    const { auth, client } = connect(server);
    await auth.login('admin@demo.test', 'admin-pass');
    const { refreshAt, expiresAt } = auth.getState();
    // A second ahead of a 2 s token's end: its whole-second claims may have lost that much (getTokenSchedule).
    expect(expiresAt! - refreshAt!).toBe(1_000);
    // Until the new pair arrives, operations go out with the old token, which the server (whole-second exp) may
    // already refuse: the ping waits until this client holds the pair the proactive refresh brought.
    await vi.waitFor(
      () => {
        expect(server.stats.refreshSuccesses).toBe(1);
        expect(auth.getState().expiresAt).toBeGreaterThan(expiresAt!);
      },
      { timeout: 3_000, interval: 50 },
    );
    await ping(client, 1);
    expect(server.stats.tokenExpired).toBe(0);
  });

  it.each([
    ['+10 min', 10 * 60_000],
    ['-10 min', -10 * 60_000],
  ])('times tokens from their own lifetime when the server clock is %s off', async (_name, offset) => {
    const { server, clock } = await startServer();
    clock.offset = offset;
    const { auth, client } = connect(server);
    const before = Date.now();
    await auth.login('admin@demo.test', 'admin-pass');
    const { expiresAt } = auth.getState();
    expect(expiresAt! - before).toBeGreaterThan(14 * 60_000);
    expect(expiresAt! - before).toBeLessThan(15 * 60_000 + 2_000);
    await ping(client, 1);
    expect(server.stats).toMatchObject({ refreshCalls: 0, tokenExpired: 0 });
  });

  it('replays after a TOKEN_EXPIRED sent as HTTP 401 (ServerError)', async () => {
    const { server } = await startServer({ authErrorStatus: 401 });
    const { auth, client } = connect(server);
    await auth.login('admin@demo.test', 'admin-pass');
    server.expireAllAccessTokens();
    const { data } = await ping(client, 7);
    expect(data).toEqual({ ping: 7 });
    expect(server.stats).toMatchObject({ refreshCalls: 1, tokenExpired: 1 });
  });

  it('keeps the session when the refresh answers 500 with HTML, and the next refresh works', async () => {
    const { server } = await startServer();
    const store = createMemoryTokenStore();
    // The next refresh is the retry the failure schedules: with retryDelay 0, as soon as the failure settles.
    const { auth, client } = connect(server, { store, retryDelay: 0 });
    await auth.login('admin@demo.test', 'admin-pass');
    const before = await store.get();
    server.faults.failNext.push({
      field: 'refreshToken',
      status: 500,
      body: '<h1>Internal error</h1>',
      contentType: 'text/html',
    });
    const error = await auth.refresh().catch((e: unknown) => e);
    expect(AuthRequestError.is(error)).toBe(true);
    expect((error as Error).message).toMatch(/not JSON/);
    expect(await store.get()).toEqual(before);
    expect(auth.getState().status).toBe('authenticated');
    server.expireAllAccessTokens();
    expect((await ping(client, 1)).data).toEqual({ ping: 1 });
    expect(server.stats.refreshSuccesses).toBe(1);
  });

  it('errors waiting operations after refreshTimeout when the refresh never answers', async () => {
    const { server } = await startServer();
    // The retry of the timed-out refresh waits out the test, so exactly one refresh is sent.
    const { auth, client } = connect(server, { refreshTimeout: 300, retryDelay: 60_000 });
    await auth.login('admin@demo.test', 'admin-pass');
    server.faults.hangRefresh = true;
    server.expireAllAccessTokens();
    const { rejected } = await settleAll(Array.from({ length: 5 }, (_, i) => ping(client, i)));
    expect(rejected).toHaveLength(5);
    for (const error of rejected)
      expect(error).toMatchObject({ name: 'AuthRequestError', message: 'refreshToken got no answer within 300 ms.' });
    expect(server.stats.refreshCalls).toBe(1);
    expect(auth.getState().status).toBe('authenticated');
  });

  it('a refresh whose response was lost keeps the session; the next attempt is a reuse and ends it cleanly', async () => {
    const { server } = await startServer();
    const { auth } = connect(server);
    await auth.login('admin@demo.test', 'admin-pass');
    server.faults.dropRefreshResponses = 1;
    expect(AuthRequestError.is(await auth.refresh().catch((e: unknown) => e))).toBe(true);
    expect(auth.getState().status).toBe('authenticated');
    const second = await auth.refresh().catch((e: unknown) => e);
    expect(SessionEndedError.is(second)).toBe(true);
    expect(auth.getState().status).toBe('unauthenticated');
    expect(server.stats).toMatchObject({ refreshCalls: 2, reuseDetections: 1 });
  });

  it('refuses to start a session from a login answer that is not JSON', async () => {
    const { server } = await startServer();
    const store: TokenStore = createMemoryTokenStore();
    const { auth } = connect(server, { store });
    server.faults.failNext.push({ field: 'loginWithEmailPassword', status: 200, body: 'OK' });
    const error = await auth.login('admin@demo.test', 'admin-pass').catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'AuthRequestError', operation: 'loginWithEmailPassword' });
    expect(await store.get()).toBeNull();
  });

  it('refuses connection-refused with an AuthRequestError', async () => {
    const { server } = await startServer();
    const { auth } = connect(server);
    const url = server.url;
    await server.close();
    const error = (await auth.login('admin@demo.test', 'admin-pass').catch((e: unknown) => e)) as TokenAuth | Error;
    expect(error).toMatchObject({
      name: 'AuthRequestError',
      message: expect.stringMatching(
        /^loginWithEmailPassword failed on the network: http:\/\/127\.0\.0\.1:\d+\/graphql cannot be reached \(fetch failed: connect ECONNREFUSED/,
      ),
    });
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/graphql$/);
  });
});
