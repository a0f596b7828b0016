import { ApolloClient, ApolloLink, gql, HttpLink, InMemoryCache } from '@apollo/client';
import { http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { createTokenAuth, type RefreshEvent } from '../../src';
import { createTestAuthServer, createTestClock } from '../../src/testing';
import { MINUTE } from './helpers';

// As an app's test suite wires it: MSW intercepts the global fetch, and the test server answers.
const API = 'https://api.example.test/graphql';
const clock = createTestClock();
const server = createTestAuthServer({ clock, users: [{ email: 'ada@example.test', password: 'pw', role: 'ADMIN' }] });
const msw = setupServer(http.post(API, ({ request }) => server.fetch(request)));

beforeAll(() => msw.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetStats());
afterAll(async () => {
  msw.close();
  await server.close();
});

const PING = gql`
  query Ping($n: Int) {
    ping(n: $n)
  }
`;

function connect() {
  const refreshes: RefreshEvent[] = [];
  const auth = createTokenAuth({
    uri: API,
    clock,
    refreshOnResume: false,
    onRefresh: (event) => refreshes.push(event),
  });
  const client = new ApolloClient({
    link: ApolloLink.from([auth.link, new HttpLink({ uri: API })]),
    cache: new InMemoryCache(),
  });
  const ping = async (n: number) =>
    (await client.query({ query: PING, variables: { n }, fetchPolicy: 'network-only' })).data;
  return { auth, client, ping, refreshes };
}

it('logs in through MSW, and replays operations that met TOKEN_EXPIRED after one refresh', async () => {
  const { auth, ping, refreshes } = connect();
  await auth.login('ada@example.test', 'pw');
  expect(auth.getState()).toMatchObject({
    status: 'authenticated',
    user: { email: 'ada@example.test', role: 'ADMIN' },
  });
  expect(await ping(1)).toEqual({ ping: 1 });

  server.expireAllAccessTokens();
  expect(await Promise.all([ping(2), ping(3)])).toEqual([{ ping: 2 }, { ping: 3 }]);
  expect(server.stats).toMatchObject({ loginCalls: 1, refreshCalls: 1, refreshSuccesses: 1, tokenExpired: 2 });
  expect(refreshes.map((event) => [event.trigger, event.outcome])).toEqual([['token-expired', 'rotated']]);
  auth.dispose();
});

it('renews proactively on the test clock, and ends the session the server revoked', async () => {
  const { auth, ping, refreshes } = connect();
  await auth.login('ada@example.test', 'pw');
  await clock.advance(30 * MINUTE);
  expect(refreshes.map((event) => event.outcome)).toEqual(['rotated', 'rotated']);
  expect(await ping(4)).toEqual({ ping: 4 });
  expect(server.stats.tokenExpired).toBe(0);

  server.revokeAllSessions();
  await expect(ping(5)).rejects.toThrow();
  expect(auth.getState()).toMatchObject({ status: 'unauthenticated', error: { name: 'SessionEndedError' } });
  await auth.logout();
  expect(clock.pending).toBe(0);
  auth.dispose();
});

it('logs out through MSW: both tokens are revoked on the server', async () => {
  const { auth, ping } = connect();
  await auth.login('ada@example.test', 'pw');
  const [token] = server.stats.refreshTokensIssued;
  await auth.logout();
  expect(server.stats.logoutCalls).toBe(1);
  await expect(ping(6)).rejects.toThrow();
  const refused = await server.fetch(API, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      query: 'mutation($t:String!){refreshToken(token:$t){accessToken}}',
      variables: { t: token },
    }),
  });
  expect((await refused.json()).errors[0].extensions.code).toBe('INVALID_REFRESH_TOKEN');
  auth.dispose();
});
