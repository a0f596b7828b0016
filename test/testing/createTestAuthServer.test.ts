import { ApolloClient, ApolloLink, gql as parse, InMemoryCache } from '@apollo/client';
import { BatchHttpLink } from '@apollo/client/link/batch-http';
import { createClient } from 'graphql-ws';
import { decodeJwt } from 'jose';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createTokenAuth } from '../../src';
import {
  createTestAuthServer,
  createTestClock,
  TEST_USERS,
  type TestAuthServer,
  type TestAuthServerOptions,
} from '../../src/testing';
import { codes, gql, login, LOGOUT, ME, MINUTE, post, REFRESH, type GqlBody } from './helpers';
import { control, gql as gqlOverHttp, login as loginOverHttp, useListeningServers } from './httpHelpers';

const servers: TestAuthServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

function start(options?: TestAuthServerOptions): TestAuthServer {
  const server = createTestAuthServer(options);
  servers.push(server);
  return server;
}

const startListening = useListeningServers();

describe('createTestAuthServer in-process (server.fetch, no port)', () => {
  it('logs in a seeded user, answers me with the access token, and signs the role into it', async () => {
    const server = start();
    const pair = await login(server, 'cashier@demo.test', 'cashier-pass');
    expect(pair.user).toEqual({ id: 'u_cashier', email: 'cashier@demo.test', role: 'Cashier' });
    expect(decodeJwt(pair.accessToken)).toMatchObject({
      sub: 'u_cashier',
      role: 'Cashier',
      typ: 'access',
      clubPermissions: ['sales.read', 'sales.write'],
    });
    const me = await gql(server, ME, undefined, pair.accessToken);
    expect(me.body.data).toEqual({ me: { id: 'u_cashier', email: 'cashier@demo.test', role: 'Cashier' } });
    expect(server.url).toBe('');
    expect(server.users.map((user) => user.email)).toEqual(TEST_USERS.map((user) => user.email));
  });

  it('takes its accounts from users, in place of the seeded ones', async () => {
    const server = start({ users: [{ email: 'ada@example.test', password: 'pw', role: 'Manager' }] });
    expect((await login(server, 'ada@example.test', 'pw')).user).toEqual({
      id: 'u_1',
      email: 'ada@example.test',
      role: 'Manager',
    });
    const seeded = await gql(
      server,
      'mutation{loginWithEmailPassword(email:"admin@demo.test",password:"admin-pass"){accessToken}}',
    );
    expect(codes(seeded.body)).toEqual(['INVALID_CREDENTIALS']);
    expect(() => createTestAuthServer({ users: [TEST_USERS[0]!, TEST_USERS[0]!] })).toThrow(
      'two users with the email owner@demo.test',
    );
  });

  it('rotates single-use refresh tokens, and a reused one revokes the whole session', async () => {
    const server = start();
    const first = await login(server);
    const rotated = (await gql(server, REFRESH, { token: first.refreshToken })).body.data!['refreshToken'];
    expect((await gql(server, ME, undefined, rotated.accessToken)).body.data?.['me'].email).toBe('admin@demo.test');

    const reuse = await gql(server, REFRESH, { token: first.refreshToken });
    expect(codes(reuse.body)).toEqual(['INVALID_REFRESH_TOKEN']);
    expect(server.stats.reuseDetections).toBe(1);
    expect(codes((await gql(server, REFRESH, { token: rotated.refreshToken })).body)).toEqual([
      'INVALID_REFRESH_TOKEN',
    ]);
    expect(codes((await gql(server, ME, undefined, rotated.accessToken)).body)).toEqual(['UNAUTHENTICATED']);
  });

  it('logout revokes the access and the refresh token at once', async () => {
    const server = start();
    const pair = await login(server);
    expect((await gql(server, LOGOUT, { refreshToken: pair.refreshToken })).body.data).toEqual({
      logout: { success: true },
    });
    expect(codes((await gql(server, ME, undefined, pair.accessToken)).body)).toEqual(['UNAUTHENTICATED']);
    expect(codes((await gql(server, REFRESH, { token: pair.refreshToken })).body)).toEqual(['INVALID_REFRESH_TOKEN']);
    expect(server.stats).toMatchObject({ loginCalls: 1, logoutCalls: 1, refreshCalls: 1, refreshSuccesses: 0 });
  });

  it('answers TOKEN_EXPIRED at the access token exp of its clock, with configured lifetimes', async () => {
    const clock = createTestClock();
    const server = start({ clock, accessTokenTtl: 60, refreshTokenTtl: 600 });
    const pair = await login(server);
    expect(decodeJwt(pair.accessToken)).toMatchObject({
      iat: Math.floor(clock.now() / 1000),
      exp: Math.floor(clock.now() / 1000) + 60,
    });
    await clock.advance(59_000);
    expect((await gql(server, ME, undefined, pair.accessToken)).body.errors).toBeUndefined();
    await clock.advance(1_000);
    expect(codes((await gql(server, ME, undefined, pair.accessToken)).body)).toEqual(['TOKEN_EXPIRED']);
    expect(server.stats.tokenExpired).toBe(1);
    await clock.advance(10 * MINUTE);
    const dead = await gql(server, REFRESH, { token: pair.refreshToken });
    expect(dead.body.errors?.[0]).toMatchObject({
      message: 'Refresh token expired; log in again',
      extensions: { code: 'INVALID_REFRESH_TOKEN' },
    });
  });

  it('renameClub needs a valid access token, answers TOKEN_EXPIRED with an expired one, and counts only the renames that ran', async () => {
    const clock = createTestClock();
    const server = start({ clock, accessTokenTtl: 60 });
    const RENAME = 'mutation($id:ID!,$name:String!){renameClub(id:$id,name:$name){id name}}';
    const CLUBS = '{clubs{id name}}';
    expect(codes((await gql(server, RENAME, { id: 'c_harbor', name: 'Pier' })).body)).toEqual(['UNAUTHENTICATED']);
    expect(codes((await gql(server, RENAME, { id: 'c_harbor', name: 'Pier' }, 'not-a-jwt')).body)).toEqual([
      'UNAUTHENTICATED',
    ]);
    const pair = await login(server);
    const renamed = await gql(server, RENAME, { id: 'c_harbor', name: 'Pier Club' }, pair.accessToken);
    expect(renamed.body).toEqual({ data: { renameClub: { id: 'c_harbor', name: 'Pier Club' } } });
    expect(server.stats.renames).toBe(1);
    // Another user of the organization sees the new name; a club the user may not see is not found.
    const owner = await login(server, 'owner@demo.test', 'owner-pass');
    expect((await gql(server, CLUBS, undefined, owner.accessToken)).body.data).toMatchObject({
      clubs: expect.arrayContaining([{ id: 'c_harbor', name: 'Pier Club' }]),
    });
    expect(codes((await gql(server, RENAME, { id: 'c_uptown', name: 'No' }, pair.accessToken)).body)).toEqual([
      'NOT_FOUND',
    ]);
    await clock.advance(60_000);
    const expired = await gql(server, RENAME, { id: 'c_harbor', name: 'Too late' }, pair.accessToken);
    expect(codes(expired.body)).toEqual(['TOKEN_EXPIRED']);
    expect(server.stats).toMatchObject({ renames: 1, tokenExpired: 1 });
    const fresh = await gql(server, REFRESH, { token: pair.refreshToken });
    const again = await gql(
      server,
      RENAME,
      { id: 'c_harbor', name: 'Too late' },
      (fresh.body.data as { refreshToken: { accessToken: string } }).refreshToken.accessToken,
    );
    expect(again.body.errors).toBeUndefined();
    expect(server.stats.renames).toBe(2);
  });

  it('expireAllAccessTokens and revokeAllSessions act on the tokens issued so far', async () => {
    const server = start();
    const before = await login(server);
    server.expireAllAccessTokens();
    const after = await login(server);
    expect(codes((await gql(server, ME, undefined, before.accessToken)).body)).toEqual(['TOKEN_EXPIRED']);
    expect((await gql(server, ME, undefined, after.accessToken)).body.errors).toBeUndefined();
    server.revokeAllSessions();
    expect(codes((await gql(server, ME, undefined, after.accessToken)).body)).toEqual(['UNAUTHENTICATED']);
    expect(codes((await gql(server, REFRESH, { token: after.refreshToken })).body)).toEqual(['INVALID_REFRESH_TOKEN']);
  });

  it('serves any origin and a relative URL, takes a Request, and answers unknown paths 404', async () => {
    const server = start();
    const request = new Request('https://api.example.test/v1/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ ping(n: 1) }' }),
    });
    expect(await (await server.fetch(request)).json()).toMatchObject({
      errors: [{ extensions: { code: 'UNAUTHENTICATED' } }],
    });
    expect((await server.fetch('/nope', { method: 'POST' })).status).toBe(404);
    const preflight = await server.fetch('/graphql', { method: 'OPTIONS' });
    expect([preflight.status, preflight.headers.get('access-control-allow-origin')]).toEqual([204, '*']);
  });

  it('fault: failNext answers a raw 5xx to the next request selecting the field, executing nothing', async () => {
    const server = start();
    const pair = await login(server);
    server.faults.failNext.push({
      field: 'refreshToken',
      status: 503,
      body: '<html>down</html>',
      contentType: 'text/html',
    });
    const response = await server.fetch('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: REFRESH, variables: { token: pair.refreshToken } }),
    });
    expect([response.status, response.headers.get('content-type'), await response.text()]).toEqual([
      503,
      'text/html',
      '<html>down</html>',
    ]);
    expect(server.stats.refreshCalls).toBe(0);
    expect((await gql(server, REFRESH, { token: pair.refreshToken })).body).toEqual({
      data: { refreshToken: { accessToken: expect.any(String), refreshToken: expect.any(String) } },
    });
  });

  it('fault: a lost answer rejects fetch as the network would, after the token was rotated', async () => {
    const server = start();
    const pair = await login(server);
    server.faults.dropRefreshResponses = 1;
    await expect(gql(server, REFRESH, { token: pair.refreshToken })).rejects.toThrow(TypeError);
    expect(server.faults.dropRefreshResponses).toBe(0);
    expect(server.stats.refreshSuccesses).toBe(1);
    expect(codes((await gql(server, REFRESH, { token: pair.refreshToken })).body)).toEqual(['INVALID_REFRESH_TOKEN']);
  });

  it('fault: a refused refresh keeps its answer; the lost answer waits for a refresh that rotates', async () => {
    const server = start();
    const pair = await login(server);
    server.faults.dropRefreshResponses = 1;
    expect(codes((await gql(server, REFRESH, { token: 'not-a-token' })).body)).toEqual(['INVALID_REFRESH_TOKEN']);
    expect(server.faults.dropRefreshResponses).toBe(1);
    await expect(gql(server, REFRESH, { token: pair.refreshToken })).rejects.toThrow(TypeError);
    expect(server.faults.dropRefreshResponses).toBe(0);
  });

  it('fault: a hung refresh answers nothing until the client aborts it or the server closes', async () => {
    const server = start();
    const pair = await login(server);
    server.faults.hangRefresh = true;
    const body = JSON.stringify({ query: REFRESH, variables: { token: pair.refreshToken } });
    const controller = new AbortController();
    const aborted = server.fetch('/graphql', { method: 'POST', body, signal: controller.signal });
    const closed = server.fetch('/graphql', { method: 'POST', body });
    const settled: string[] = [];
    void aborted.catch(() => settled.push('aborted'));
    void closed.catch(() => settled.push('closed'));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(settled).toEqual([]);
    controller.abort();
    await expect(aborted).rejects.toMatchObject({ name: 'AbortError' });
    await server.close();
    await expect(closed).rejects.toThrow(TypeError);
    expect(server.stats.refreshCalls).toBe(2);
  });

  it('fault: rejectRefresh refuses every refresh with INVALID_REFRESH_TOKEN, rotating and revoking nothing', async () => {
    const server = start();
    const pair = await login(server);
    server.faults.rejectRefresh = true;
    const refused = await gql(server, REFRESH, { token: pair.refreshToken });
    expect(refused.body.errors?.[0]).toMatchObject({
      message: 'Refresh token refused by the test',
      extensions: { code: 'INVALID_REFRESH_TOKEN' },
    });
    server.faults.rejectRefresh = false;
    expect((await gql(server, REFRESH, { token: pair.refreshToken })).body).toEqual({
      data: { refreshToken: { accessToken: expect.any(String), refreshToken: expect.any(String) } },
    });
    expect(server.stats).toMatchObject({ refreshCalls: 2, refreshSuccesses: 1, reuseDetections: 0 });
  });

  it('fault: delayMs delays the named field only', async () => {
    const server = start();
    const pair = await login(server);
    server.faults.delayMs['me'] = 150;
    const timed = async (query: string) => {
      const startedAt = performance.now();
      await gql(server, query, undefined, pair.accessToken);
      return performance.now() - startedAt;
    };
    expect(await timed(ME)).toBeGreaterThanOrEqual(140);
    expect(await timed('{ ping(n: 2) }')).toBeLessThan(140);
  });

  it('counts, reports the counters on GET /control/stats, and resets them in place', async () => {
    const server = start();
    const { stats } = server;
    const pair = await login(server);
    await gql(server, ME, undefined, pair.accessToken);
    expect(stats).toMatchObject({
      loginCalls: 1,
      requests: 2,
      authorizationHeaders: ['', `Bearer ${pair.accessToken}`],
      refreshTokensIssued: [pair.refreshToken],
    });
    expect(await (await server.fetch('/control/stats')).json()).toMatchObject({
      loginCalls: 1,
      requests: 2,
      authorizationHeaders: 2,
    });
    expect((await server.fetch('/control/reset-stats', { method: 'POST' })).status).toBe(200);
    expect(server.stats).toBe(stats);
    expect(stats).toMatchObject({ loginCalls: 0, requests: 0, authorizationHeaders: [], refreshTokensIssued: [] });
    server.resetStats();
    expect((await server.fetch('/control/expire-access-tokens', { method: 'POST' })).status).toBe(200);
    expect(codes((await gql(server, ME, undefined, pair.accessToken)).body)).toEqual(['TOKEN_EXPIRED']);
  });
});

describe('createTestAuthServer batches (BatchHttpLink)', () => {
  it('answers a JSON array of operations with the array of their results, in order', async () => {
    const server = start();
    const pair = await login(server);
    const { status, body } = await post(
      server,
      [{ query: '{ ping(n: 1) }' }, { query: ME }, { query: '{ ping(n: 3) }' }],
      pair.accessToken,
    );
    expect(status).toBe(200);
    expect(body).toEqual([{ data: { ping: 1 } }, { data: { me: pair.user } }, { data: { ping: 3 } }]);
    expect(server.stats.requests).toBe(2);
  });

  it('with authErrorStatus, answers it to a batch whose results carry only auth errors, the array as body', async () => {
    const server = start({ authErrorStatus: 401 });
    const pair = await login(server);
    server.expireAllAccessTokens();
    const expired = await post(server, [{ query: '{ ping(n: 1) }' }, { query: ME }], pair.accessToken);
    expect(expired.status).toBe(401);
    expect(expired.body.map(codes)).toEqual([['TOKEN_EXPIRED'], ['TOKEN_EXPIRED']]);
    expect(server.stats.tokenExpired).toBe(2);
    // One result without an auth error keeps the batch at 200, so its data is not lost.
    const mixed = await post(server, [{ query: '{ ping(n: 1) }' }, { query: '{ nope }' }], pair.accessToken);
    expect(mixed.status).toBe(200);
    expect(codes(mixed.body[0])).toEqual(['TOKEN_EXPIRED']);
    expect(mixed.body[1].errors[0].message).toMatch(/Cannot query field "nope"/);
    expect((await post(server, [], pair.accessToken)).status).toBe(400);
  });

  it("serves Apollo's BatchHttpLink: the batch that met TOKEN_EXPIRED is replayed after one refresh", async () => {
    const server = start();
    const auth = createTokenAuth({ uri: '/graphql', fetch: server.fetch, refreshOnResume: false });
    const client = new ApolloClient({
      link: ApolloLink.from([
        auth.link,
        new BatchHttpLink({ uri: '/graphql', fetch: server.fetch, batchMax: 10, batchInterval: 5 }),
      ]),
      cache: new InMemoryCache(),
    });
    await auth.login('admin@demo.test', 'admin-pass');
    server.expireAllAccessTokens();
    server.resetStats();
    const pings = await Promise.all(
      [1, 2, 3].map((n) =>
        client.query({ query: parse`query P($n:Int){ping(n:$n)}`, variables: { n }, fetchPolicy: 'network-only' }),
      ),
    );
    expect(pings.map((result) => result.data)).toEqual([{ ping: 1 }, { ping: 2 }, { ping: 3 }]);
    expect(server.stats).toMatchObject({ refreshCalls: 1, refreshSuccesses: 1, tokenExpired: 3, requests: 3 });
    auth.dispose();
    client.stop();
  });
});

describe('createTestAuthServer over HTTP (listen)', () => {
  it('listens on 127.0.0.1 on an ephemeral port and serves the same server there', async () => {
    const server = start();
    const url = await server.listen();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/graphql$/);
    expect(server.url).toBe(url);
    const pair = await login(url);
    expect((await gql(url, ME, undefined, pair.accessToken)).body.data?.['me'].email).toBe('admin@demo.test');
    // The state is one: a token issued over HTTP works in-process.
    expect((await gql(server, ME, undefined, pair.accessToken)).body.errors).toBeUndefined();
    const batch = await post(url, [{ query: '{ ping(n: 1) }' }, { query: '{ ping(n: 2) }' }], pair.accessToken);
    expect(batch.body).toEqual([{ data: { ping: 1 } }, { data: { ping: 2 } }]);
    await expect(server.listen()).rejects.toThrow('listening already');
  });

  it('destroys the socket of a lost answer, and close() ends a hung request', async () => {
    const server = start();
    const url = await server.listen();
    const pair = await login(url);
    server.faults.dropRefreshResponses = 1;
    await expect(gql(url, REFRESH, { token: pair.refreshToken })).rejects.toThrow(TypeError);
    server.faults.hangRefresh = true;
    const hung = gql(url, REFRESH, { token: pair.refreshToken });
    await new Promise((resolve) => setTimeout(resolve, 50));
    await server.close();
    await expect(hung).rejects.toThrow(TypeError);
  });

  it('serves graphql-ws at the same /graphql: the ticker for the token of connection_init', async () => {
    const server = start({ tickerInterval: 10 });
    const url = await server.listen();
    const pair = await login(url);
    const client = createClient({
      url: url.replace(/^http/, 'ws'),
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${pair.accessToken}` },
      retryAttempts: 0,
    });
    const ticks: unknown[] = [];
    await new Promise<void>((resolve, reject) => {
      const stop = client.subscribe<{ ticker: unknown }>(
        { query: 'subscription { ticker { n email } }' },
        {
          next: (result) => {
            ticks.push(result.data?.ticker);
            if (ticks.length === 2) {
              stop();
              resolve();
            }
          },
          error: reject,
          complete: () => {},
        },
      );
    });
    expect(ticks).toEqual([
      { n: 1, email: 'admin@demo.test' },
      { n: 2, email: 'admin@demo.test' },
    ]);
    expect(server.ws.connectionParams).toEqual([{ authorization: `Bearer ${pair.accessToken}` }]);
    await client.dispose();
  });
});

describe('createTestAuthServer lifecycle', () => {
  it('exposes the GraphQL URL on 127.0.0.1 with an ephemeral port once listening', async () => {
    const server = start();
    expect(server.url).toBe('');

    const url = await server.listen();

    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/graphql$/);
    expect(url).not.toContain(':0/');
    expect(server.url).toBe(url);
  });

  it('closes a server that never listened', async () => {
    await expect(createTestAuthServer().close()).resolves.toBeUndefined();
  });

  it('keeps state and secrets apart between servers in one process', async () => {
    const a = await startListening();
    const b = await startListening();
    const { accessToken } = await loginOverHttp(a);

    expect(codes((await gqlOverHttp(b, ME, { token: accessToken })).body)).toEqual(['UNAUTHENTICATED']);
    expect(a.stats.loginCalls).toBe(1);
    expect(b.stats.loginCalls).toBe(0);
  });
});

describe('createTestAuthServer HTTP answers', () => {
  it('answers a CORS preflight with 204 and the CORS headers', async () => {
    const server = await startListening();
    const response = await fetch(server.url, { method: 'OPTIONS' });

    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-allow-headers')).toBe('authorization, content-type');
    expect(response.headers.get('access-control-allow-methods')).toBe('POST, GET, OPTIONS');
  });

  it('answers GraphQL as application/json with CORS headers', async () => {
    const server = await startListening();
    const { status, headers } = await gqlOverHttp(server, ME);

    expect(status).toBe(200);
    expect(headers.get('content-type')).toMatch(/^application\/json/);
    expect(headers.get('access-control-allow-origin')).toBe('*');
  });

  it.each([
    ['not JSON', '{"query": '],
    ['not an object', '[1]'],
    ['without a string query', '{"query": 1}'],
  ])('answers a body that is %s with 400 BAD_REQUEST', async (_case, body) => {
    const server = await startListening();
    const response = await fetch(server.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });

    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const json = (await response.json()) as GqlBody;
    expect(codes(json)).toEqual(['BAD_REQUEST']);
    expect(json.errors?.[0]?.message).toEqual(expect.any(String));
  });

  it('answers unknown paths with 404 and a wrong method with 405', async () => {
    const server = await startListening();

    expect((await control(server, '/nope')).status).toBe(404);
    expect((await fetch(server.url)).status).toBe(405);
  });

  it('reports GraphQL validation errors in the body with status 200', async () => {
    const server = await startListening();
    const { status, body } = await gqlOverHttp(server, '{ nope }');

    expect(status).toBe(200);
    expect(body.errors).toHaveLength(1);
  });
});
