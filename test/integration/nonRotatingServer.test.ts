import { describe, expect, it } from 'vitest';
import { createMemoryTokenStore, createTokenAuth, shareTokenStore, type RefreshEvent } from '../../src';
import { createTestAuthServer, createTestClock } from '../../src/testing';
import { clientFor, ping, useCleanups } from '../helpers/overHttp';

// A server that does not rotate the refresh token (RFC 6749 §6: a refresh may answer no new refresh token, and the
// client keeps the one it has), over HTTP on 127.0.0.1 with the contract's 15-minute access tokens on one test clock.
// It answers the same refresh token, or, to a refresh document that selects none, no refresh token at all.

const cleanups = useCleanups();
const MINUTE = 60_000;
// The refresh document of a client whose server answers no refresh token.
const NO_REFRESH_TOKEN = 'mutation($token:String!){refreshToken(token:$token){accessToken}}';

const shapes = [
  ['the same refresh token', {}],
  ['no refresh token', { documents: { refresh: NO_REFRESH_TOKEN } }],
] as const;

async function start(more: object, { store = createMemoryTokenStore() } = {}) {
  const clock = createTestClock();
  const server = createTestAuthServer({ clock, rotateRefreshTokens: false });
  const url = await server.listen(0, '127.0.0.1');
  cleanups.push(() => server.close());
  const refreshes: RefreshEvent[] = [];
  const open = () => {
    const auth = createTokenAuth({
      uri: url,
      clock,
      store,
      refreshOnResume: false,
      onRefresh: (event) => refreshes.push(event),
      ...more,
    });
    cleanups.push(() => auth.dispose());
    return auth;
  };
  const auth = open();
  return { clock, server, auth, store, refreshes, open, client: clientFor(auth.link, url) };
}

describe.each(shapes)('a server that answers a refresh with %s', (_shape, options) => {
  it('keeps the session through refresh(), with a new access token and the refresh token it had', async () => {
    const { auth, store, refreshes } = await start(options);
    await auth.login('admin@demo.test', 'admin-pass');
    const before = await store.get();
    await auth.refresh();
    const after = await store.get();
    expect(after?.refreshToken).toBe(before?.refreshToken);
    expect(after?.accessToken).not.toBe(before?.accessToken);
    expect(auth.getState().status).toBe('authenticated');
    await auth.refresh();
    expect(refreshes.map((event) => event.outcome)).toEqual(['rotated', 'rotated']);
  });

  it('refreshes once for a burst of 20 operations on an expired token, and replays each', async () => {
    const { server, auth, client } = await start(options);
    await auth.login('admin@demo.test', 'admin-pass');
    server.expireAllAccessTokens();
    const burst = await Promise.all(Array.from({ length: 20 }, (_, n) => ping(client, n)));
    expect(burst.map((result) => result.data)).toEqual(Array.from({ length: 20 }, (_, n) => ({ ping: n })));
    expect(server.stats.refreshCalls).toBe(1);
  });

  it('renews on schedule for an hour, with the same refresh token each time and no operation refused', async () => {
    const { server, auth, client, clock } = await start(options);
    await auth.login('admin@demo.test', 'admin-pass');
    for (let minute = 0; minute < 60; minute += 5) {
      await clock.advance(5 * MINUTE);
      await ping(client, minute);
    }
    expect(server.stats.refreshSuccesses).toBe(4);
    expect(new Set(server.stats.refreshTokensSubmitted).size).toBe(1);
    expect(server.stats.tokenExpired).toBe(0);
  });

  it('restores a stored pair whose access token died, with one refresh', async () => {
    const { server } = await start(options);
    const pair = await server.issueTokens('cashier@demo.test');
    const store = createMemoryTokenStore({ ...pair, receivedAt: Date.now() - 20 * MINUTE });
    const restored = createTokenAuth({ uri: server.url, store, refreshOnResume: false, ...options });
    cleanups.push(() => restored.dispose());
    await expect(restored.getAccessToken()).resolves.not.toBe(pair.accessToken);
    expect(restored.getState()).toMatchObject({ status: 'authenticated', user: { id: 'u_cashier' } });
    expect(server.stats.refreshCalls).toBe(1);
    expect((await store.get())?.refreshToken).toBe(pair.refreshToken);
  });

  it('is followed by a session sharing the store, with no second refresh', async () => {
    const store = shareTokenStore(createMemoryTokenStore());
    const { server, auth, open } = await start(options, { store });
    const other = open();
    await auth.login('admin@demo.test', 'admin-pass');
    await auth.refresh();
    const renewed = await auth.getAccessToken();
    await expect.poll(() => other.getAccessToken()).toBe(renewed);
    expect(server.stats.refreshCalls).toBe(1);
  });
});
