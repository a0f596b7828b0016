import { describe, expect, it, vi } from 'vitest';
import { useCleanups } from '../helpers/overHttp';
import { bearerOf, idle, record, startOverWs } from '../helpers/overWs';

const cleanups = useCleanups();

describe('createTokenAuthWsClient: the connection carries the session', () => {
  it("authenticates the connection with the session's access token", async () => {
    const { server, auth, client } = await startOverWs(cleanups);
    await auth.login('admin@demo.test', 'admin-pass');

    const ticker = record(client);
    await ticker.more(3);

    expect(server.ws.connectionParams).toHaveLength(1);
    expect(bearerOf(server.ws.connectionParams[0])).toBe(await auth.getAccessToken());
    expect(ticker.ticks.slice(0, 3)).toEqual(
      [1, 2, 3].map((n) => ({ n, userId: 'u_admin', email: 'admin@demo.test' })),
    );
    expect(server.stats.refreshCalls).toBe(0);
  });

  it('sends no authorization at all when signed out, and refreshes nothing when the server refuses', async () => {
    const { server, client } = await startOverWs(cleanups);

    const ticker = record(client);
    await vi.waitFor(() => expect(ticker.failedResults.length + ticker.errors.length).toBeGreaterThan(0));

    expect(server.ws.connectionParams).toEqual([undefined]);
    // The server's answer reaches the app as it is: there is no session to refresh.
    expect(ticker.failedResults).toEqual([
      { errors: [expect.objectContaining({ extensions: { code: 'UNAUTHENTICATED' } })] },
    ]);
    expect(ticker.ticks).toEqual([]);
    expect(server.stats.refreshCalls).toBe(0);
  });

  it('merges its authorization into your own connectionParams, and sends yours alone when signed out', async () => {
    const { server, auth, client } = await startOverWs(cleanups, {
      ws: { connectionParams: async () => ({ locale: 'fr' }) },
    });

    record(client);
    await vi.waitFor(() => expect(server.ws.connectionParams).toHaveLength(1));
    expect(server.ws.connectionParams[0]).toEqual({ locale: 'fr' });

    await auth.login('admin@demo.test', 'admin-pass');
    await record(client).more(1);
    expect(server.ws.connectionParams.at(-1)).toEqual({
      locale: 'fr',
      authorization: `Bearer ${await auth.getAccessToken()}`,
    });
  });

  it('waits for the refresh of a dead token and connects once, with the new token', async () => {
    let ahead = 0;
    const clock = { now: () => Date.now() + ahead, setTimeout, clearTimeout };
    const { server, auth, client } = await startOverWs(cleanups, { auth: { clock } });
    await auth.login('admin@demo.test', 'admin-pass');
    const old = await auth.getAccessToken();
    // 20 minutes on: the access token is dead by the local clock.
    ahead = 20 * 60_000;
    server.faults.delayMs['refreshToken'] = 100;

    const ticker = record(client);
    await ticker.more(2);

    expect(server.stats.refreshCalls).toBe(1);
    expect(server.ws.connectionParams.map(bearerOf)).toEqual([await auth.getAccessToken()]);
    expect(bearerOf(server.ws.connectionParams[0])).not.toBe(old);
    expect(ticker.errors).toEqual([]);
  });

  it('connects with a token still valid while a refresh is out, and moves to the new one when it lands', async () => {
    const { server, auth, client } = await startOverWs(cleanups);
    await auth.login('admin@demo.test', 'admin-pass');
    const old = await auth.getAccessToken();
    server.faults.delayMs['refreshToken'] = 100;

    const refreshed = auth.refresh();
    const ticker = record(client);
    await ticker.more(1);
    await refreshed;
    await vi.waitFor(() => expect(server.ws.connectionParams).toHaveLength(2));
    await ticker.more(2);

    expect(server.stats.refreshCalls).toBe(1);
    expect(server.ws.connectionParams.map(bearerOf)).toEqual([old, await auth.getAccessToken()]);
    expect(ticker.errors).toEqual([]);
    expect(ticker.failedResults).toEqual([]);
  });

  it('never fails the connection when no token can be had: a refresh that failed is retried, and the stream starts', async () => {
    let ahead = 0;
    const clock = { now: () => Date.now() + ahead, setTimeout, clearTimeout };
    const { server, auth, client } = await startOverWs(cleanups, {
      auth: { clock, retryDelay: 60_000 },
      ws: { authRetryDelay: 10 },
    });
    await auth.login('admin@demo.test', 'admin-pass');
    ahead = 20 * 60_000;
    server.faults.failNext.push({ field: 'refreshToken', status: 503, body: 'unavailable' });

    const ticker = record(client);
    await ticker.more(3);

    // The failed refresh was answered without running; the one after it rotated the pair.
    expect(server.faults.failNext).toEqual([]);
    expect(server.stats.refreshSuccesses).toBe(1);
    expect(ticker.errors).toEqual([]);
    expect(ticker.failedResults).toEqual([]);
    // The connection that had no token closed before its connection_init.
    expect(server.ws.connectionParams.map(bearerOf)).toEqual([await auth.getAccessToken()]);
  });

  it('an HTTP query next to a live socket behaves as before', async () => {
    const { ApolloClient, ApolloLink, HttpLink, InMemoryCache, gql } = await import('@apollo/client');
    const { GraphQLWsLink } = await import('@apollo/client/link/subscriptions');
    const { server, auth, client } = await startOverWs(cleanups);
    await auth.login('admin@demo.test', 'admin-pass');
    const apollo = new ApolloClient({
      link: ApolloLink.split(
        ({ operationType }) => operationType === 'subscription',
        new GraphQLWsLink(client),
        ApolloLink.from([auth.link, new HttpLink({ uri: server.url })]),
      ),
      cache: new InMemoryCache(),
    });
    const ticks: number[] = [];
    const subscription = apollo
      .subscribe<{ ticker: { n: number } }>({
        query: gql`
          subscription {
            ticker {
              n
            }
          }
        `,
      })
      .subscribe({
        next: ({ data }) => data && ticks.push(data.ticker.n),
      });
    cleanups.push(() => subscription.unsubscribe());
    await vi.waitFor(() => expect(ticks.length).toBeGreaterThan(2));

    const { data } = await apollo.query<{ ping: number }>({
      query: gql`
        query {
          ping(n: 7)
        }
      `,
      fetchPolicy: 'network-only',
    });
    server.ws.onExpiry = 'keep';
    server.expireAllAccessTokens();
    const replayed = await apollo.query<{ ping: number }>({
      query: gql`
        query {
          ping(n: 8)
        }
      `,
      fetchPolicy: 'network-only',
    });
    const before = ticks.length;
    await idle();

    expect(data?.ping).toBe(7);
    expect(replayed.data?.ping).toBe(8);
    expect(server.stats.authorizationHeaders.at(-1)).toBe(`Bearer ${await auth.getAccessToken()}`);
    // One refresh for the HTTP query's TOKEN_EXPIRED; the socket was re-authenticated and ticks on.
    expect(server.stats.refreshCalls).toBe(1);
    expect(ticks.length).toBeGreaterThan(before);
    expect(server.ws.connectionParams.map(bearerOf).at(-1)).toBe(await auth.getAccessToken());
  });
});
