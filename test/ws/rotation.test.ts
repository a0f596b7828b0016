import { describe, expect, it, vi } from 'vitest';
import { useCleanups } from '../helpers/overHttp';
import { bearerOf, idle, record, startOverWs, tickingAsAdmin } from '../helpers/overWs';

const cleanups = useCleanups();

describe('createTokenAuthWsClient: subscriptions live through token rotation', () => {
  it('a proactive refresh re-authenticates the socket before the old token expires, with no error', async () => {
    // 2-second access tokens renewed 1.5 s before expiry: the proactive refresh runs half a second in.
    const { server, auth, ticker } = await tickingAsAdmin(cleanups, {
      server: { accessTokenTtl: 2 },
      auth: { refreshLeadTime: 1_500 },
    });

    await vi.waitFor(() => expect(server.ws.connectionParams).toHaveLength(2), { timeout: 3_000 });
    const renewed = await auth.getAccessToken();
    await ticker.more(3);

    expect(server.stats.refreshCalls).toBe(1);
    const [first, second] = server.ws.connectionParams.map(bearerOf);
    expect(second).toBe(renewed);
    expect(second).not.toBe(first);
    expect(ticker.errors).toEqual([]);
    expect(ticker.failedResults).toEqual([]);
    expect(ticker.completed).toBe(false);
    // The old socket went before its token expired: the server never had to close it.
    expect(server.stats.tokenExpired).toBe(0);
  });

  it('auth.refresh() moves the socket to the new token; graphql-ws resubscribes every subscription', async () => {
    const { server, auth, client } = await startOverWs(cleanups);
    await auth.login('admin@demo.test', 'admin-pass');
    const first = record(client);
    const second = record(client);
    await Promise.all([first.more(2), second.more(2)]);

    await auth.refresh();
    await vi.waitFor(() => expect(server.ws.connectionParams).toHaveLength(2));
    await Promise.all([first.more(3), second.more(3)]);

    expect(server.ws.connectionParams.map(bearerOf).at(-1)).toBe(await auth.getAccessToken());
    expect(server.stats.refreshCalls).toBe(1);
    expect([...first.errors, ...second.errors, ...first.failedResults, ...second.failedResults]).toEqual([]);
    // Both subscriptions share the one new socket.
    expect(server.ws.open).toBe(1);
  });

  it('restartOnRefresh: false keeps the socket as it is after a refresh', async () => {
    const { server, auth, ticker } = await tickingAsAdmin(cleanups, { ws: { restartOnRefresh: false } });
    const old = await auth.getAccessToken();

    await auth.refresh();
    await ticker.more(3);
    await idle();

    expect(server.ws.connectionParams.map(bearerOf)).toEqual([old]);
    expect(ticker.errors).toEqual([]);
    // Consecutive events: the stream was never restarted.
    expect(ticker.ticks.map((tick) => tick.n)).toEqual(ticker.ticks.map((_, index) => index + 1));
  });

  it('a subscription started signed out moves to the user who logs in, even with restartOnRefresh: false', async () => {
    const { server, auth, client } = await startOverWs(cleanups, {
      ws: { restartOnRefresh: false, lazyCloseTimeout: 5_000 },
    });
    const anonymous = record(client);
    await vi.waitFor(() => expect(anonymous.failedResults).toHaveLength(1));

    await auth.login('admin@demo.test', 'admin-pass');
    const ticker = record(client);
    await ticker.more(2);

    expect(server.ws.connectionParams.map(bearerOf)).toEqual([undefined, await auth.getAccessToken()]);
    expect(ticker.ticks[0]?.userId).toBe('u_admin');
  });
});
