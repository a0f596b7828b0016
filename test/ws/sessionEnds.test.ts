import { ApolloClient, gql, InMemoryCache } from '@apollo/client';
import { GraphQLWsLink } from '@apollo/client/link/subscriptions';
import { describe, expect, it, vi } from 'vitest';
import { SessionEndedError } from '../../src/index';
import { useCleanups } from '../helpers/overHttp';
import { bearerOf, idle, record, startOverWs, tickingAsAdmin } from '../helpers/overWs';

const cleanups = useCleanups();

const reasonOf = (error: unknown) =>
  SessionEndedError.is(error) ? error.reason : `not a SessionEndedError: ${String(error)}`;

describe("createTokenAuthWsClient: the previous user's stream ends at once", () => {
  it('logout: the subscription errors with SessionEndedError and no event arrives after logout() resolves', async () => {
    const { server, auth, ticker } = await tickingAsAdmin(cleanups, {}, 3);

    const loggingOut = auth.logout();
    // The state is published synchronously at the start of logout(): the stream ended there and then.
    const atLogout = ticker.ticks.length;
    expect(ticker.errors.map(reasonOf)).toEqual(['logout']);
    await loggingOut;
    const sentAtLogout = server.ws.events;
    await idle();

    expect(ticker.ticks.length).toBe(atLogout);
    expect(ticker.errors).toHaveLength(1);
    // The server stopped too: the socket of the previous user is closed.
    await vi.waitFor(() => expect(server.ws.open).toBe(0));
    expect(server.ws.events - sentAtLogout).toBeLessThanOrEqual(1);
  });

  it('a login as someone else: the running subscription carries on as that user within 2 s, with no event of the first user after the switch', async () => {
    const { server, auth, client, ticker } = await tickingAsAdmin(cleanups, {}, 3);
    const cashierId = server.users.find((user) => user.email === 'cashier@demo.test')!.id;
    let atSwitch: { events: number; time: number } | undefined;
    const off = auth.subscribe(() => {
      if (!atSwitch && auth.getState().user?.id === cashierId)
        atSwitch = { events: ticker.ticks.length, time: performance.now() };
    });
    cleanups.push(off);

    await auth.login('cashier@demo.test', 'cashier-pass');
    await ticker.more(3);

    expect(ticker.errors).toEqual([]);
    expect(ticker.completed).toBe(false);
    const before = ticker.ticks.slice(0, atSwitch!.events);
    const after = ticker.ticks.slice(atSwitch!.events);
    expect(new Set(before.map((tick) => tick.userId))).toEqual(new Set(['u_admin']));
    expect(new Set(after.map((tick) => tick.userId))).toEqual(new Set([cashierId]));
    expect(ticker.arrivals[atSwitch!.events]! - atSwitch!.time).toBeLessThanOrEqual(2_000);
    // One new connection, with the cashier's token; the admin's socket is closed.
    expect(server.ws.connectionParams.map(bearerOf)).toEqual([expect.any(String), await auth.getAccessToken()]);
    await vi.waitFor(() => expect(server.ws.open).toBe(1));
    // A subscription started after the switch runs as the cashier too, on the same connection.
    const later = record(client);
    await later.more(2);
    expect(new Set(later.ticks.map((tick) => tick.userId))).toEqual(new Set([cashierId]));
    expect(server.ws.connectionParams).toHaveLength(2);
  });

  it('a session the server revoked: one refused refresh ends the session and the stream, with zero events after', async () => {
    const { server, auth, ticker } = await tickingAsAdmin(cleanups, {}, 3);

    server.revokeAllSessions();
    await vi.waitFor(() => expect(ticker.errors).toHaveLength(1));
    const atEnd = ticker.ticks.length;
    await idle();

    expect(ticker.errors.map(reasonOf)).toEqual(['rejected']);
    expect(auth.getState()).toMatchObject({ status: 'unauthenticated', error: ticker.errors[0] });
    expect(server.stats).toMatchObject({ refreshCalls: 1, refreshSuccesses: 0 });
    expect(ticker.ticks.length).toBe(atEnd);
    // No reconnection with the dead token.
    expect(server.ws.connectionParams).toHaveLength(1);
  });

  it('ends every running subscription, and a later one starts signed out, without authorization', async () => {
    const { server, auth, client } = await startOverWs(cleanups);
    await auth.login('admin@demo.test', 'admin-pass');
    const first = record(client);
    const second = record(client);
    await Promise.all([first.more(2), second.more(2)]);

    await auth.logout();
    const after = record(client);
    await vi.waitFor(() => expect(after.failedResults).toHaveLength(1));

    expect([...first.errors, ...second.errors].map(reasonOf)).toEqual(['logout', 'logout']);
    expect(server.ws.connectionParams).toHaveLength(2);
    expect(server.ws.connectionParams[1]).toBeUndefined();
    expect(after.ticks).toEqual([]);
  });

  it('through Apollo: the subscription observable errors with the SessionEndedError at logout', async () => {
    const { auth, client } = await startOverWs(cleanups);
    await auth.login('admin@demo.test', 'admin-pass');
    const apollo = new ApolloClient({ link: new GraphQLWsLink(client), cache: new InMemoryCache() });
    const ticks: number[] = [];
    const errors: unknown[] = [];
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
        next: ({ data, error }) => (error ? errors.push(error) : data && ticks.push(data.ticker.n)),
        error: (error) => errors.push(error),
      });
    cleanups.push(() => subscription.unsubscribe());
    await vi.waitFor(() => expect(ticks.length).toBeGreaterThan(2));

    await auth.logout();
    const atLogout = ticks.length;
    await idle();

    expect(ticks.length).toBe(atLogout);
    expect(errors.map(reasonOf)).toEqual(['logout']);
  });

  it('iterate() follows the session too: it throws the SessionEndedError at logout', async () => {
    const { auth, client } = await startOverWs(cleanups);
    await auth.login('admin@demo.test', 'admin-pass');
    const seen: number[] = [];

    const iterated = (async () => {
      for await (const result of client.iterate<{ ticker: { n: number } }>({
        query: 'subscription { ticker { n } }',
      })) {
        seen.push(result.data!.ticker.n);
        if (seen.length === 3) void auth.logout();
      }
    })();

    await expect(iterated).rejects.toSatisfy((error) => reasonOf(error) === 'logout');
    expect(seen).toEqual([1, 2, 3]);
  });
});
