import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ApolloClient } from '@apollo/client';
import { ServerError } from '@apollo/client/errors';
import { decodeJwt, SignJWT } from 'jose';
import { describe, expect, it, vi } from 'vitest';
import {
  AuthRequestError,
  type Clock,
  createMemoryTokenStore,
  createTokenAuth,
  SessionEndedError,
  shareTokenStore,
  type TokenAuthOptions,
  type TokenPair,
  type TokenStore,
} from '../../src';
import type { AuthServer, AuthServerOptions } from '../../demo/server/createAuthServer';
import { clientFor, ping, PING, startDemoServer, useCleanups } from '../helpers/overHttp';

// Fault cases over HTTP. Some failure kinds (a lost refresh answer, an HTML error, a refresh that never answers,
// connection refused, a dead restored pair) are also in test/integration/tokenAuth.test.ts; here they are checked
// in more depth (the store, the tokens the server saw, what follows) or from other angles (clock skew, garbage or
// huge tokens, logout races, unsubscribed operations). docs/reliability.md lists both.

const SECRET = 'faults-test-secret-of-at-least-32-bytes!';
const ADMIN = ['admin@demo.test', 'admin-pass'] as const;

const cleanups = useCleanups();

/** A fresh demo server on 127.0.0.1, an ephemeral port, and a secret the test can sign with. */
function startServer(options: AuthServerOptions = {}) {
  return startDemoServer(cleanups, { secret: SECRET, ...options });
}

/** `createTokenAuth` and an `ApolloClient` whose `HttpLink` talks to `server`. */
function connect(server: AuthServer, options: Partial<TokenAuthOptions> = {}) {
  const onError = vi.fn();
  const onSessionEnd = vi.fn();
  const store = options.store ?? createMemoryTokenStore();
  const auth = createTokenAuth({ uri: server.url, store, onError, onSessionEnd, ...options });
  const client = clientFor(auth.link, server.url);
  cleanups.push(() => auth.dispose());
  return { auth, client, store, onError, onSessionEnd };
}

/** Runs `count` pings at once and sorts how they settled. */
async function pings(client: ApolloClient, count: number, from = 0) {
  const results = await Promise.allSettled(Array.from({ length: count }, (_, i) => ping(client, from + i)));
  return {
    data: results.flatMap((r) => (r.status === 'fulfilled' ? [(r.value.data as { ping: number }).ping] : [])),
    errors: results.flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : [])),
  };
}

async function stored(store: TokenStore): Promise<TokenPair | null> {
  return ((await store.get()) as TokenPair | null | undefined) ?? null;
}

/** The Authorization headers the server saw from `index` on, without the empty ones. */
function bearersSince(server: AuthServer, index: number): string[] {
  return server.stats.authorizationHeaders.slice(index).filter(Boolean);
}

/** A `fetch` for the auth mutations that lets `rewrite` change the server's answer to `field`. */
function rewritingFetch(
  rewrite: (
    field: string,
    answer: Record<string, unknown>,
  ) => Promise<Record<string, unknown>> | Record<string, unknown>,
): typeof fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    const text = await response.text();
    let body: { data?: Record<string, Record<string, unknown> | null> };
    try {
      body = JSON.parse(text) as typeof body;
    } catch {
      return new Response(text, { status: response.status, headers: response.headers });
    }
    for (const [field, answer] of Object.entries(body.data ?? {})) {
      if (answer) body.data![field] = await rewrite(field, answer);
    }
    return new Response(JSON.stringify(body), {
      status: response.status,
      headers: { 'content-type': 'application/json' },
    });
  };
}

/** Re-signs a server access token with the server's secret, with its claims changed by `change`. */
async function resign(
  token: string,
  change: (claims: Record<string, unknown>) => Record<string, unknown>,
): Promise<string> {
  return new SignJWT(change({ ...decodeJwt(token) }) as never)
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .sign(new TextEncoder().encode(SECRET));
}

/** Whether the server refuses `pair`'s access token as revoked (UNAUTHENTICATED). */
async function isRevoked(server: AuthServer, pair: TokenPair): Promise<boolean> {
  const answer = await fetch(server.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${pair.accessToken}` },
    body: JSON.stringify({ query: '{ ping(n: 1) }' }),
  }).then((response) => response.json() as Promise<{ errors?: Array<{ extensions: { code: string } }> }>);
  return answer.errors?.[0]?.extensions.code === 'UNAUTHENTICATED';
}

/** A URL on 127.0.0.1 where nothing listens: connections are refused. */
async function refusingUrl(): Promise<string> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return `http://127.0.0.1:${port}/graphql`;
}

describe('fault injection over HTTP against the demo server', () => {
  it('a refresh answer lost after the server rotated: the operations waiting for it error, the session is kept, and the one unavoidable resubmission ends it cleanly', async () => {
    const server = await startServer();
    // The retry the failure schedules waits out the test: the resubmission below is forced with refresh().
    const { auth, client, store, onSessionEnd } = connect(server, { retryDelay: 60_000 });
    await auth.login(...ADMIN);
    const before = await stored(store);
    server.expireAllAccessTokens();
    server.resetStats();
    server.faults.dropRefreshResponses = 1;
    server.faults.delayMs.refreshToken = 100;

    // The operations go out while the refresh is out, are answered TOKEN_EXPIRED, and all wait for that refresh.
    const refresh = auth.refresh().catch((e: unknown) => e);
    const first = await pings(client, 8);
    expect(AuthRequestError.is(await refresh)).toBe(true);
    expect(first.data).toEqual([]);
    expect(first.errors).toHaveLength(8);
    for (const error of first.errors)
      expect(error).toMatchObject({
        name: 'AuthRequestError',
        message: expect.stringMatching(/^refreshToken failed on the network: http.* cannot be reached \(/),
      });
    expect(auth.getState().status).toBe('authenticated');
    expect(await stored(store)).toEqual(before);
    // The refresh and the eight first attempts: no second refresh, no replay.
    expect(server.stats).toMatchObject({ refreshCalls: 1, refreshSuccesses: 1, tokenExpired: 8, requests: 1 + 8 });

    // The client cannot know the old token was spent: the next refresh (the retry, forced here) submits it
    // again, the server takes it as reuse and revokes the session, and the session ends once, with the store
    // cleared. Operations answered TOKEN_EXPIRED meanwhile wait for it.
    const retry = auth.refresh().catch((e: unknown) => e);
    const second = await pings(client, 3, 100);
    expect(await retry).toMatchObject({ name: 'SessionEndedError', reason: 'rejected' });
    expect(second.data).toEqual([]);
    for (const error of second.errors) expect(SessionEndedError.is(error)).toBe(true);
    expect(server.stats.refreshTokensSubmitted).toEqual([before!.refreshToken, before!.refreshToken]);
    expect(server.stats.reuseDetections).toBe(1);
    expect(auth.getState().status).toBe('unauthenticated');
    expect(await stored(store)).toBeNull();
    expect(onSessionEnd).toHaveBeenCalledTimes(1);
    expect(onSessionEnd).toHaveBeenCalledWith(expect.objectContaining({ reason: 'rejected' }));
  });

  it('HTTP 502 with an HTML body on the refresh: waiting operations error with its status, the session and the store are kept, and the next refresh sends the same token once', async () => {
    const server = await startServer();
    const { auth, client, store } = connect(server, { retryDelay: 300, refreshFloor: 100 });
    await auth.login(...ADMIN);
    const before = await stored(store);
    server.expireAllAccessTokens();
    server.resetStats();
    server.faults.failNext.push({
      field: 'refreshToken',
      status: 502,
      body: '<html><body>502 Bad Gateway</body></html>',
      contentType: 'text/html',
    });

    // The operations go out with the token the server now refuses, are answered TOKEN_EXPIRED, and wait for the
    // refresh; once it failed, for the retry it scheduled (due within 10 s): none sends a refresh of its own.
    const refresh = auth.refresh().catch((e: unknown) => e);
    const waiting = pings(client, 5);
    expect(await refresh).toMatchObject({ name: 'AuthRequestError', status: 502 });
    expect(auth.getState().status).toBe('authenticated');
    expect(auth.getState().retry).toMatchObject({ attempt: 1, error: { status: 502 } });
    expect(await stored(store)).toEqual(before);

    // The next refresh is the retry the failure scheduled (after retryDelay); once it has rotated, the waiting
    // operations are replayed with the new token: one transient failure cost them latency, not an error.
    const recovered = await waiting;
    expect(recovered.errors).toEqual([]);
    expect(recovered.data.sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4]);
    expect(auth.getState().retry).toBeUndefined();
    expect(auth.getState().status).toBe('authenticated');
    // The 502 came from in front of the service: the token never reached the resolver, and reached it once after.
    expect(server.stats.refreshTokensSubmitted).toEqual([before!.refreshToken]);
    // The five TOKEN_EXPIRED are the first attempts; the replays met none.
    expect(server.stats).toMatchObject({ refreshSuccesses: 1, reuseDetections: 0, tokenExpired: 5 });
  });

  it.each([
    [500, 'Internal Server Error', 'text/plain'],
    [502, '<html><body>502 Bad Gateway</body></html>', 'text/html'],
  ])(
    'HTTP %i with a non-JSON body on an ordinary operation passes through: no refresh, no replay, the session is kept',
    async (status, body, contentType) => {
      const server = await startServer();
      const { auth, client, store, onSessionEnd } = connect(server);
      await auth.login(...ADMIN);
      const before = await stored(store);
      server.resetStats();
      server.faults.failNext.push({ field: 'ping', status, body, contentType });

      const error = await ping(client, 1).catch((e: unknown) => e);
      expect(ServerError.is(error)).toBe(true);
      expect(error).toMatchObject({ statusCode: status, bodyText: body });
      expect(server.stats).toMatchObject({ requests: 1, refreshCalls: 0 });
      expect(auth.getState().status).toBe('authenticated');
      expect(await stored(store)).toEqual(before);
      expect(onSessionEnd).not.toHaveBeenCalled();
      expect((await ping(client, 2)).data).toEqual({ ping: 2 });
    },
  );

  it('refreshTimeout defaults to 30 s and bounds a refresh that never answers: every waiting operation errors at its own 21-s bound first, and the session carries on', async () => {
    const server = await startServer();
    // Real time, except that once `compressed`, every timer of the session fires after at most 100 ms: the
    // 30-s default is observed without waiting for it. The proactive timer re-arms itself when it fires early.
    const requested: number[] = [];
    let compressed = false;
    const clock: Clock = {
      now: () => Date.now(),
      setTimeout(callback, delay) {
        requested.push(delay);
        return setTimeout(callback, compressed ? Math.min(delay, 100) : delay);
      },
      clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
    };
    // The retry of the timed-out refresh comes 300 ms after it, by the real clock.
    const { auth, client } = connect(server, { clock, retryDelay: 300, refreshFloor: 100 });
    await auth.login(...ADMIN);
    server.expireAllAccessTokens();
    server.resetStats();
    server.faults.hangRefresh = true;
    requested.length = 0;
    compressed = true;

    const started = performance.now();
    const hung = await pings(client, 6);
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(hung.errors).toHaveLength(6);
    // An operation waits 21 s at most (its replay included), less than the refresh's bound: it gives up first.
    for (const error of hung.errors) {
      expect(error).toMatchObject({ name: 'AuthRequestError', message: 'Waited 21 s for a new access token.' });
    }
    expect(requested).toContain(30_000);
    expect(requested.filter((delay) => delay > 20_000 && delay <= 21_000)).toHaveLength(6);
    expect(Math.max(...requested.filter((delay) => delay <= 60_000))).toBeLessThanOrEqual(30_000);
    // The refresh, bounded, and its retry, sent again into the hang.
    await vi.waitFor(() => expect(server.stats.refreshCalls).toBe(2), { timeout: 3_000, interval: 20 });
    expect(auth.getState().status).toBe('authenticated');

    compressed = false;
    server.faults.hangRefresh = false;
    // The retry sends the token that never reached the resolver again, once, and the session carries on.
    await vi.waitFor(() => expect(auth.getState().retry).toBeUndefined(), { timeout: 3_000, interval: 20 });
    expect(auth.getState().status).toBe('authenticated');
    const after = await pings(client, 3, 10);
    expect(after.errors).toEqual([]);
    expect(server.stats).toMatchObject({ refreshSuccesses: 1, reuseDetections: 0 });
  });

  it('connection refused on the auth endpoint: waiting operations error with AuthRequestError, the session and the store are kept, and logout still ends it', async () => {
    const server = await startServer();
    const pair = await server.issueTokens('admin@demo.test');
    const store = createMemoryTokenStore(pair);
    // Operations reach the live server; the auth mutations go where nothing listens.
    const { auth, client, onError } = connect(server, { uri: await refusingUrl(), store });
    expect((await ping(client, 1)).data).toEqual({ ping: 1 });
    server.expireAllAccessTokens();

    const refused = await pings(client, 4, 10);
    expect(refused.errors).toHaveLength(4);
    for (const error of refused.errors)
      expect(error).toMatchObject({
        name: 'AuthRequestError',
        message: expect.stringMatching(/^refreshToken failed on the network: http.* cannot be reached \(/),
      });
    expect(auth.getState().status).toBe('authenticated');
    expect(await stored(store)).toEqual(pair);

    await auth.logout();
    expect(auth.getState().status).toBe('unauthenticated');
    expect(await stored(store)).toBeNull();
    expect(onError).toHaveBeenCalledWith(expect.objectContaining({ name: 'AuthRequestError', operation: 'logout' }));
  });

  it('a server clock 10 min behind with 5-min tokens: a restored pair, dead by the local clock, is refreshed once before the first operation, and never again', async () => {
    const server = await startServer({ now: () => Date.now() - 10 * 60_000, accessTokenTtl: 300 });
    const pair = await server.issueTokens('admin@demo.test');
    const { client } = connect(server, { store: createMemoryTokenStore(pair) });
    const { data, errors } = await pings(client, 10);
    expect(errors).toEqual([]);
    expect(data).toHaveLength(10);
    expect(server.stats).toMatchObject({ refreshCalls: 1, tokenExpired: 0 });
  });

  // Found by this suite: a pair followed from the store was timed by its exp against the local clock. A session
  // now times it from the server-clock offset it learnt from the pairs it received itself.
  it.each([
    ['10 min behind', -10 * 60_000],
    ['10 min ahead', 10 * 60_000],
  ])(
    'with the server clock %s, an instance that follows a rotation made by another times the pair like the one that rotated it',
    async (_name, offset) => {
      const server = await startServer({ now: () => Date.now() + offset });
      const store = shareTokenStore(createMemoryTokenStore());
      const a = connect(server, { store });
      const b = connect(server, { store });
      await a.auth.login(...ADMIN);
      await a.auth.refresh();
      await vi.waitFor(() => expect(b.auth.getState().user?.claims.jti).toBe(a.auth.getState().user?.claims.jti));
      // Both hold the pair A received a few milliseconds ago: their refresh times must agree to a second.
      const gap = b.auth.getState().refreshAt! - a.auth.getState().refreshAt!;
      expect(Math.abs(gap)).toBeLessThan(1_000);
    },
  );

  it('an access token without exp: no timer, operations carry it, and TOKEN_EXPIRED refreshes once and replays', async () => {
    const server = await startServer();
    const withoutExp = rewritingFetch(async (_field, answer) => ({
      ...answer,
      accessToken: await resign(answer.accessToken as string, ({ exp: _, ...claims }) => claims),
    }));
    const { auth, client } = connect(server, { fetch: withoutExp });
    await auth.login(...ADMIN);
    expect(auth.getState()).toMatchObject({ status: 'authenticated', user: { role: 'ADMIN' } });
    expect(auth.getState().expiresAt).toBeUndefined();
    expect(auth.getState().refreshAt).toBeUndefined();
    expect((await pings(client, 3)).errors).toEqual([]);

    server.expireAllAccessTokens();
    server.resetStats();
    const replayed = await pings(client, 5, 10);
    expect(replayed.errors).toEqual([]);
    expect(server.stats).toMatchObject({ refreshCalls: 1, refreshSuccesses: 1, tokenExpired: 5 });
    expect(auth.getState().expiresAt).toBeUndefined();
  });

  it('a login answer with a garbage access token is refused: login rejects with AuthRequestError and nothing is stored', async () => {
    const server = await startServer();
    const garbage = rewritingFetch((_field, answer) => ({ ...answer, accessToken: 'garbage' }));
    const { auth, store } = connect(server, { fetch: garbage });
    const error = await auth.login(...ADMIN).catch((e: unknown) => e);
    expect(error).toMatchObject({
      name: 'AuthRequestError',
      message: 'loginWithEmailPassword answered with an access token that is not a valid JWT.',
    });
    expect(auth.getState()).toMatchObject({ status: 'unauthenticated', error });
    expect(await stored(store)).toBeNull();
  });

  it('a refresh answer with a garbage access token ends the session (the old token is spent): waiting operations get SessionEndedError, and the spent token is never sent again', async () => {
    const server = await startServer();
    let garble = false;
    const sometimesGarbage = rewritingFetch((field, answer) =>
      garble && field === 'refreshToken' ? { ...answer, accessToken: 'garbage' } : answer,
    );
    const { auth, client, store, onSessionEnd } = connect(server, { fetch: sometimesGarbage });
    await auth.login(...ADMIN);
    const spent = (await stored(store))!.refreshToken;
    garble = true;
    // The operations are answered TOKEN_EXPIRED, so they wait for the refresh.
    server.expireAllAccessTokens();
    server.resetStats();
    server.faults.delayMs.refreshToken = 100;

    const refresh = auth.refresh().catch((e: unknown) => e);
    const { data, errors } = await pings(client, 6);
    expect(await refresh).toMatchObject({ name: 'SessionEndedError', reason: 'rejected' });
    expect(data).toEqual([]);
    expect(errors).toHaveLength(6);
    for (const error of errors)
      expect(error).toMatchObject({
        name: 'SessionEndedError',
        reason: 'rejected',
        cause: { name: 'AuthRequestError' },
      });
    expect(await stored(store)).toBeNull();
    expect(onSessionEnd).toHaveBeenCalledTimes(1);
    await pings(client, 2, 10);
    await auth.refresh().catch(() => undefined);
    expect(server.stats.refreshTokensSubmitted).toEqual([spent]);
  });

  it('a stored pair whose access token is garbage: refreshed before the first operation, which never carries the garbage', async () => {
    const server = await startServer();
    const { refreshToken } = await server.issueTokens('admin@demo.test');
    const { auth, client } = connect(server, {
      store: createMemoryTokenStore({ accessToken: 'garbage', refreshToken }),
    });
    expect((await ping(client, 1)).data).toEqual({ ping: 1 });
    expect(server.stats).toMatchObject({ refreshCalls: 1, tokenExpired: 0 });
    expect(server.stats.authorizationHeaders.some((header) => header.includes('garbage'))).toBe(false);
    expect(auth.getState()).toMatchObject({ status: 'authenticated', user: { role: 'ADMIN' } });
  });

  it('a 1 MB access token: accepted and stored as given (the package does not police size); operations fail with the transport error, passed through, with no refresh and no replay; logout still ends the session', async () => {
    // Expected from the code: readTokenPair only decodes the JWT, so the pair is used. Node's HTTP server
    // refuses headers over 16 KB with 431; HttpLink turns that into a ServerError, which is not TOKEN_EXPIRED.
    const server = await startServer();
    const padding = 'x'.repeat(1024 * 1024);
    const huge = rewritingFetch(async (_field, answer) => ({
      ...answer,
      accessToken: await resign(answer.accessToken as string, (claims) => ({ ...claims, padding })),
    }));
    const { auth, client, store, onError } = connect(server, { fetch: huge });
    await auth.login(...ADMIN);
    expect((await stored(store))!.accessToken.length).toBeGreaterThan(1024 * 1024);
    server.resetStats();

    const error = await ping(client, 1).catch((e: unknown) => e);
    expect(ServerError.is(error)).toBe(true);
    expect(error).toMatchObject({ statusCode: 431 });
    expect(server.stats).toMatchObject({ refreshCalls: 0, tokenExpired: 0 });
    expect(auth.getState().status).toBe('authenticated');

    // logout sends the access token too: the server refuses it the same way, and the session ends locally.
    await auth.logout();
    expect(auth.getState().status).toBe('unauthenticated');
    expect(await stored(store)).toBeNull();
    expect(onError).toHaveBeenCalledWith(
      expect.objectContaining({ name: 'AuthRequestError', operation: 'logout', status: 431 }),
    );
  });

  it('logout while a refresh is in flight: the session stays ended, the store stays empty, no operation carries a token after, and the rotated pair is the one revoked', async () => {
    const server = await startServer();
    const rotated: TokenPair[] = [];
    const recording = rewritingFetch((field, answer) => {
      if (field === 'refreshToken') rotated.push(answer as unknown as TokenPair);
      return answer;
    });
    const { auth, client, store, onSessionEnd } = connect(server, { fetch: recording });
    await auth.login(...ADMIN);
    // The operations go out, are answered TOKEN_EXPIRED, and wait for the refresh.
    server.expireAllAccessTokens();
    server.faults.delayMs.refreshToken = 200;
    const refresh = auth.refresh().catch((e: unknown) => e);
    const waiting = pings(client, 5);
    await vi.waitFor(() => expect(server.stats).toMatchObject({ refreshCalls: 1, tokenExpired: 5 }));
    const mark = server.stats.authorizationHeaders.length;

    await auth.logout();
    const { data, errors } = await waiting;
    expect(await refresh).toMatchObject({ name: 'SessionEndedError', reason: 'logout' });
    expect(data).toEqual([]);
    expect(errors).toHaveLength(5);
    for (const error of errors) expect(error).toMatchObject({ name: 'SessionEndedError', reason: 'logout' });
    expect(auth.getState().status).toBe('unauthenticated');
    expect(await stored(store)).toBeNull();
    expect(onSessionEnd).toHaveBeenCalledTimes(1);
    // Only the logout mutation itself carried a token.
    expect(bearersSince(server, mark)).toHaveLength(1);
    expect(server.stats.logoutCalls).toBe(1);

    // The pair the late refresh brought is dead on the server, and nothing brought it back here.
    expect(rotated).toHaveLength(1);
    expect(await isRevoked(server, rotated[0]!)).toBe(true);
    await ping(client, 9).catch(() => undefined);
    expect(server.stats.authorizationHeaders.at(-1)).toBe('');
    expect(auth.getState().status).toBe('unauthenticated');
  });

  it('logout on one instance while another instance sharing the store has a refresh in flight: every instance ends, the store stays empty, no operation carries a token after, and the pair that refresh brings is revoked', async () => {
    const server = await startServer();
    const store = shareTokenStore(createMemoryTokenStore());
    const rotated: TokenPair[] = [];
    const recording = rewritingFetch(async (field, answer) => {
      if (field === 'refreshToken') {
        rotated.push(answer as unknown as TokenPair);
        // The server has rotated; its answer reaches the client 200 ms later.
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      return answer;
    });
    const a = connect(server, { store, fetch: recording });
    const b = connect(server, { store, fetch: recording });
    await a.auth.login(...ADMIN);
    server.expireAllAccessTokens();
    const waiting = pings(b.client, 3);
    // A logout does not wait for another instance's refresh: it is sent once the server has issued the new pair
    // (sent before, it would revoke the session first, and that refresh would bring no pair at all).
    await vi.waitFor(() => expect(rotated).toHaveLength(1));
    const mark = server.stats.authorizationHeaders.length;

    await a.auth.logout();
    // The waiting operations fail as soon as B follows the logout, before B's refresh answers.
    const { data } = await waiting;
    expect(data).toEqual([]);
    expect(rotated).toHaveLength(1);
    // Once it answers, B revokes the pair it brought (nobody will use it): A's logout and that one.
    await vi.waitFor(() => expect(server.stats.logoutCalls).toBe(2));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(a.auth.getState().status).toBe('unauthenticated');
    expect(b.auth.getState().status).toBe('unauthenticated');
    expect(await stored(store)).toBeNull();
    // Only logout mutations carried a token; nothing was spent twice.
    expect(bearersSince(server, mark)).toHaveLength(server.stats.logoutCalls);
    expect(server.stats.reuseDetections).toBe(0);
    expect(await isRevoked(server, rotated[0]!)).toBe(true);
  });

  it('logout on an instance whose own refresh is out reaches the other instances at once: they stop sending the token before that refresh answers', async () => {
    const server = await startServer();
    const store = shareTokenStore(createMemoryTokenStore());
    const a = connect(server, { store });
    const b = connect(server, { store });
    await a.auth.login(...ADMIN);
    server.faults.delayMs.refreshToken = 500;
    const refresh = a.auth.refresh().catch(() => undefined);
    await vi.waitFor(() => expect(server.stats.refreshCalls).toBe(1));
    const mark = server.stats.authorizationHeaders.length;

    const logout = a.auth.logout();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(b.auth.getState().status).toBe('unauthenticated');
    expect(await stored(store)).toBeNull();
    await ping(b.client, 1).catch(() => undefined);
    // The refresh is still out: the only request with a token so far would be a logout mutation.
    expect(server.stats.refreshSuccesses).toBe(0);
    expect(bearersSince(server, mark)).toHaveLength(server.stats.logoutCalls);
    await Promise.all([refresh, logout]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(b.auth.getState().status).toBe('unauthenticated');
    expect(await stored(store)).toBeNull();
  });

  it('an operation unsubscribed while it waits for a refresh is never replayed, and the others and the session carry on', async () => {
    const server = await startServer();
    const { auth, client } = connect(server);
    await auth.login(...ADMIN);
    server.expireAllAccessTokens();
    server.resetStats();
    server.faults.delayMs.refreshToken = 200;

    const seen = vi.fn();
    const watched = client
      .watchQuery({ query: PING, variables: { n: 99 }, fetchPolicy: 'network-only' })
      .subscribe(seen);
    const others = pings(client, 3);
    await vi.waitFor(() => expect(server.stats.refreshCalls).toBe(1));
    watched.unsubscribe();

    const { data, errors } = await others;
    expect(errors).toEqual([]);
    expect(data.sort()).toEqual([0, 1, 2]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    // The first attempts of all four met TOKEN_EXPIRED; only the three still subscribed were replayed.
    expect(server.stats).toMatchObject({ refreshCalls: 1, tokenExpired: 4, requests: 4 + 1 + 3 });
    expect(seen).not.toHaveBeenCalledWith(expect.objectContaining({ data: { ping: 99 } }));
    expect(auth.getState().status).toBe('authenticated');
  });
});
