import { decodeJwt, decodeProtectedHeader, jwtVerify } from 'jose';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createAuthServer, type AuthServer, type AuthServerOptions } from '../../../demo/server/createAuthServer.ts';

// The counters of the sign-in doors beyond the contract, which these tests do not call.
const NO_SIGN_IN_DOOR_CALLS = {
  registerCalls: 0,
  requestSignInCodeCalls: 0,
  signInWithCodeCalls: 0,
  signInCalls: 0,
  verifySecondFactorCalls: 0,
  signInWithIdTokenCalls: 0,
};

interface GqlError {
  message: string;
  extensions: { code: string };
}
interface GqlBody {
  data?: Record<string, any> | null;
  errors?: GqlError[];
}
interface GqlResponse {
  status: number;
  headers: Headers;
  body: GqlBody;
}
interface Pair {
  accessToken: string;
  refreshToken: string;
}

const LOGIN = /* GraphQL */ `
  mutation Login($email: String!, $password: String!) {
    loginWithEmailPassword(email: $email, password: $password) {
      accessToken
      refreshToken
      user {
        id
        email
        role
      }
    }
  }
`;
const REFRESH = 'mutation Refresh($token: String!) { refreshToken(token: $token) { accessToken refreshToken } }';
const LOGOUT = 'mutation Logout($token: String!) { logout(refreshToken: $token) { success } }';
const ME = '{ me { id email role } }';

const servers: AuthServer[] = [];

afterEach(async () => {
  vi.unstubAllEnvs();
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function start(options?: AuthServerOptions): Promise<AuthServer> {
  const server = createAuthServer(options);
  servers.push(server);
  await server.listen();
  return server;
}

async function gql(
  server: AuthServer,
  query: string,
  { variables, token, authorization }: { variables?: object; token?: string; authorization?: string } = {},
): Promise<GqlResponse> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  const header = authorization ?? (token === undefined ? undefined : `Bearer ${token}`);
  if (header !== undefined) headers['authorization'] = header;
  const response = await fetch(server.url, { method: 'POST', headers, body: JSON.stringify({ query, variables }) });
  return { status: response.status, headers: response.headers, body: (await response.json()) as GqlBody };
}

async function login(server: AuthServer, email = 'owner@demo.test', password = 'owner-pass'): Promise<Pair> {
  const { body } = await gql(server, LOGIN, { variables: { email, password } });
  const { accessToken, refreshToken } = body.data?.['loginWithEmailPassword'] as Pair;
  return { accessToken, refreshToken };
}

function refresh(server: AuthServer, token: string): Promise<GqlResponse> {
  return gql(server, REFRESH, { variables: { token } });
}

function codes(body: GqlBody): string[] | undefined {
  return body.errors?.map((error) => error.extensions.code);
}

function control(server: AuthServer, path: string, method = 'POST'): Promise<Response> {
  return fetch(server.url.replace('/graphql', path), { method });
}

describe('lifecycle', () => {
  it('exposes the GraphQL URL on 127.0.0.1 with an ephemeral port once listening', async () => {
    const server = createAuthServer();
    servers.push(server);
    expect(server.url).toBe('');

    const url = await server.listen();

    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/graphql$/);
    expect(url).not.toContain(':0/');
    expect(server.url).toBe(url);
  });

  it('closes a server that never listened', async () => {
    await expect(createAuthServer().close()).resolves.toBeUndefined();
  });

  it('keeps state and secrets apart between servers in one process', async () => {
    const a = await start();
    const b = await start();
    const { accessToken } = await login(a);

    expect(codes((await gql(b, ME, { token: accessToken })).body)).toEqual(['UNAUTHENTICATED']);
    expect(a.stats.loginCalls).toBe(1);
    expect(b.stats.loginCalls).toBe(0);
  });

  it('seeds the owner, a built-in ADMIN, a custom-role Cashier and an ADMIN with a second factor', () => {
    expect(createAuthServer().users).toEqual([
      expect.objectContaining({ id: 'u_owner', email: 'owner@demo.test', password: 'owner-pass', role: 'OWNER' }),
      expect.objectContaining({ id: 'u_admin', email: 'admin@demo.test', password: 'admin-pass', role: 'ADMIN' }),
      expect.objectContaining({
        id: 'u_cashier',
        email: 'cashier@demo.test',
        password: 'cashier-pass',
        role: 'Cashier',
      }),
      expect.objectContaining({
        id: 'u_twofactor',
        email: 'twofactor@demo.test',
        password: 'twofactor-pass',
        role: 'ADMIN',
        secondFactor: true,
      }),
    ]);
  });
});

describe('HTTP', () => {
  it('answers a CORS preflight with 204 and the CORS headers', async () => {
    const server = await start();
    const response = await fetch(server.url, { method: 'OPTIONS' });

    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-allow-headers')).toBe('authorization, content-type');
    expect(response.headers.get('access-control-allow-methods')).toBe('POST, GET, OPTIONS');
  });

  it('answers GraphQL as application/json with CORS headers', async () => {
    const server = await start();
    const { status, headers } = await gql(server, ME);

    expect(status).toBe(200);
    expect(headers.get('content-type')).toMatch(/^application\/json/);
    expect(headers.get('access-control-allow-origin')).toBe('*');
  });

  it.each([
    ['not JSON', '{"query": '],
    ['not an object', '[1]'],
    ['without a string query', '{"query": 1}'],
  ])('answers a body that is %s with 400 BAD_REQUEST', async (_case, body) => {
    const server = await start();
    const response = await fetch(server.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });

    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const json = (await response.json()) as GqlBody;
    expect(codes(json)).toEqual(['BAD_REQUEST']);
    expect(json.errors?.[0]?.message).toEqual(expect.any(String));
  });

  it('answers unknown paths with 404 and a wrong method with 405', async () => {
    const server = await start();

    expect((await control(server, '/nope')).status).toBe(404);
    expect((await fetch(server.url)).status).toBe(405);
  });

  it('reports GraphQL validation errors in the body with status 200', async () => {
    const server = await start();
    const { status, body } = await gql(server, '{ nope }');

    expect(status).toBe(200);
    expect(body.errors).toHaveLength(1);
  });
});

describe('loginWithEmailPassword', () => {
  it.each([
    ['owner@demo.test', 'owner-pass', 'u_owner', 'OWNER'],
    ['admin@demo.test', 'admin-pass', 'u_admin', 'ADMIN'],
    ['cashier@demo.test', 'cashier-pass', 'u_cashier', 'Cashier'],
  ])('logs in %s and returns a pair and the user', async (email, password, id, role) => {
    const server = await start();
    const { body } = await gql(server, LOGIN, { variables: { email, password } });

    expect(body.errors).toBeUndefined();
    expect(body.data?.['loginWithEmailPassword']).toEqual({
      accessToken: expect.any(String),
      refreshToken: expect.any(String),
      user: { id, email, role },
    });
    expect(server.stats.loginCalls).toBe(1);
  });

  it('signs an HS256 access token with the documented claims and lifetime', async () => {
    const server = await start({ secret: 'test-secret', accessTokenTtl: 120 });
    const { accessToken } = await login(server, 'admin@demo.test', 'admin-pass');

    expect(decodeProtectedHeader(accessToken).alg).toBe('HS256');
    const { payload } = await jwtVerify(accessToken, new TextEncoder().encode('test-secret'));
    expect(payload).toEqual({
      sub: 'u_admin',
      email: 'admin@demo.test',
      role: 'ADMIN',
      sid: expect.any(String),
      jti: expect.any(String),
      n: expect.any(Number),
      typ: 'access',
      iat: expect.any(Number),
      exp: payload.iat! + 120,
    });
  });

  it('signs a refresh token with sub, sid, jti, typ refresh and the refresh lifetime', async () => {
    const server = await start({ refreshTokenTtl: 3600 });
    const { accessToken, refreshToken } = await login(server);
    const payload = decodeJwt(refreshToken);

    expect(payload).toEqual({
      sub: 'u_owner',
      sid: decodeJwt(accessToken)['sid'],
      jti: expect.any(String),
      typ: 'refresh',
      iat: expect.any(Number),
      exp: payload.iat! + 3600,
    });
  });

  it("puts clubPermissions and orgPermissions in a custom role's access token only", async () => {
    const server = await start();

    expect(decodeJwt((await login(server, 'cashier@demo.test', 'cashier-pass')).accessToken)).toMatchObject({
      role: 'Cashier',
      clubPermissions: ['sales.read', 'sales.write'],
      orgPermissions: [],
    });
    expect(decodeJwt((await login(server)).accessToken)).not.toHaveProperty('clubPermissions');
    expect(decodeJwt((await login(server, 'admin@demo.test', 'admin-pass')).accessToken)).not.toHaveProperty(
      'orgPermissions',
    );
  });

  it('numbers access tokens with a serial that grows across logins and refreshes', async () => {
    const server = await start();
    const first = await login(server);
    const second = await login(server);
    const { body } = await refresh(server, second.refreshToken);

    const serials = [first.accessToken, second.accessToken, body.data?.['refreshToken'].accessToken as string].map(
      (token) => decodeJwt(token)['n'] as number,
    );
    expect(serials[1]).toBeGreaterThan(serials[0]!);
    expect(serials[2]).toBeGreaterThan(serials[1]!);
  });

  it.each([
    ['a wrong password', 'owner@demo.test', 'nope'],
    ['an unknown email', 'nobody@demo.test', 'owner-pass'],
  ])('refuses %s with INVALID_CREDENTIALS and one message for both', async (_case, email, password) => {
    const server = await start();
    const { body } = await gql(server, LOGIN, { variables: { email, password } });

    expect(body.data).toBeNull();
    expect(body.errors).toEqual([
      expect.objectContaining({ message: 'Invalid email or password', extensions: { code: 'INVALID_CREDENTIALS' } }),
    ]);
    expect(server.stats.loginCalls).toBe(1);
  });
});

describe('access-token operations', () => {
  it('me returns the current user', async () => {
    const server = await start();
    const { accessToken } = await login(server, 'cashier@demo.test', 'cashier-pass');

    const { body } = await gql(server, ME, { token: accessToken });

    expect(body).toEqual({ data: { me: { id: 'u_cashier', email: 'cashier@demo.test', role: 'Cashier' } } });
  });

  it.each([
    ['owner@demo.test', 'owner-pass', ['c_downtown', 'c_harbor', 'c_uptown']],
    ['admin@demo.test', 'admin-pass', ['c_downtown', 'c_harbor']],
    ['cashier@demo.test', 'cashier-pass', ['c_uptown']],
  ])('clubs returns the clubs %s may see', async (email, password, clubIds) => {
    const server = await start();
    const { accessToken } = await login(server, email, password);

    const { body } = await gql(server, '{ clubs { id name } }', { token: accessToken });

    expect(body.data?.['clubs'].map((club: { id: string }) => club.id)).toEqual(clubIds);
    expect(body.data?.['clubs'][0].name).toEqual(expect.any(String));
  });

  it('ping echoes n, and 0 without it', async () => {
    const server = await start();
    const { accessToken } = await login(server);

    const { body } = await gql(server, 'query ($n: Int) { a: ping(n: $n) b: ping }', {
      token: accessToken,
      variables: { n: 42 },
    });

    expect(body).toEqual({ data: { a: 42, b: 0 } });
  });

  it.each(['me { id }', 'clubs { id }', 'ping(n: 1)'])('%s requires an access token', async (selection) => {
    const server = await start();
    const { body } = await gql(server, `{ ${selection} }`);

    expect(body.data).toBeNull();
    expect(codes(body)).toEqual(['UNAUTHENTICATED']);
  });

  it.each([
    ['an empty header', ''],
    ['another scheme', 'Basic b3duZXI6b3duZXItcGFzcw=='],
    ['a bare Bearer', 'Bearer '],
    ['a token that is not a JWT', 'Bearer not-a-jwt'],
  ])('refuses %s with UNAUTHENTICATED', async (_case, authorization) => {
    const server = await start();
    const { body } = await gql(server, ME, { authorization });

    expect(body.errors).toEqual([expect.objectContaining({ extensions: { code: 'UNAUTHENTICATED' } })]);
  });

  it('refuses a token signed with another secret and a refresh token with UNAUTHENTICATED', async () => {
    const server = await start();
    const foreign = await createAuthServer().issueTokens('owner@demo.test');
    const own = await login(server);

    for (const token of [foreign.accessToken, own.refreshToken]) {
      expect(codes((await gql(server, ME, { token })).body)).toEqual(['UNAUTHENTICATED']);
    }
    expect(server.stats.tokenExpired).toBe(0);
  });

  it('answers TOKEN_EXPIRED once the clock reaches exp, and counts it', async () => {
    let clock = Date.parse('2030-01-01T00:00:00.500Z');
    const server = await start({ now: () => clock, accessTokenTtl: 900 });
    const { accessToken } = await login(server);

    clock += 899_000;
    expect((await gql(server, ME, { token: accessToken })).body.errors).toBeUndefined();

    clock += 1_000;
    const { body } = await gql(server, ME, { token: accessToken });
    expect(body).toEqual({
      data: null,
      errors: [expect.objectContaining({ message: expect.any(String), extensions: { code: 'TOKEN_EXPIRED' } })],
    });
    expect(server.stats.tokenExpired).toBe(1);
  });

  it('expireAllAccessTokens expires every token issued so far but not later ones', async () => {
    const server = await start();
    const before = await login(server);
    const issued = await server.issueTokens('admin@demo.test');

    server.expireAllAccessTokens();
    const after = await login(server);

    expect(codes((await gql(server, ME, { token: before.accessToken })).body)).toEqual(['TOKEN_EXPIRED']);
    expect(codes((await gql(server, '{ ping }', { token: issued.accessToken })).body)).toEqual(['TOKEN_EXPIRED']);
    expect((await gql(server, ME, { token: after.accessToken })).body.errors).toBeUndefined();
    expect(server.stats.tokenExpired).toBe(2);

    const renewed = (await refresh(server, before.refreshToken)).body.data?.['refreshToken'] as Pair;
    expect((await gql(server, ME, { token: renewed.accessToken })).body.errors).toBeUndefined();
  });

  it('takes lifetimes from ACCESS_TOKEN_TTL and REFRESH_TOKEN_TTL, else 900 s and 30 days', async () => {
    const lifetimes = async () => {
      const { accessToken, refreshToken } = await createAuthServer().issueTokens('owner@demo.test');
      return [accessToken, refreshToken].map((token) => decodeJwt(token)).map(({ exp, iat }) => exp! - iat!);
    };

    vi.stubEnv('ACCESS_TOKEN_TTL', '');
    vi.stubEnv('REFRESH_TOKEN_TTL', '');
    expect(await lifetimes()).toEqual([900, 2_592_000]);

    vi.stubEnv('ACCESS_TOKEN_TTL', '60');
    vi.stubEnv('REFRESH_TOKEN_TTL', '600');
    expect(await lifetimes()).toEqual([60, 600]);
  });
});

describe('refreshToken', () => {
  it('rotates the pair; the new access token works and the new refresh token is the current one', async () => {
    const server = await start();
    const first = await login(server);

    const { body } = await refresh(server, first.refreshToken);
    const second = body.data?.['refreshToken'] as Pair;

    expect(second).toEqual({ accessToken: expect.any(String), refreshToken: expect.any(String) });
    expect(second.refreshToken).not.toBe(first.refreshToken);
    expect(decodeJwt(second.accessToken)['sid']).toBe(decodeJwt(first.accessToken)['sid']);
    expect((await gql(server, ME, { token: second.accessToken })).body.data?.['me'].id).toBe('u_owner');
    expect((await refresh(server, second.refreshToken)).body.errors).toBeUndefined();
    expect(server.stats).toMatchObject({ refreshCalls: 2, refreshSuccesses: 2, reuseDetections: 0 });
  });

  it('records every submitted token in order, valid or not', async () => {
    const server = await start();
    const { refreshToken } = await login(server);

    await refresh(server, refreshToken);
    await refresh(server, 'garbage');

    expect(server.stats.refreshTokensSubmitted).toEqual([refreshToken, 'garbage']);
    expect(server.stats).toMatchObject({ refreshCalls: 2, refreshSuccesses: 1 });
  });

  it('detects reuse of a spent refresh token and revokes the whole session', async () => {
    const server = await start();
    const first = await login(server);
    const second = (await refresh(server, first.refreshToken)).body.data?.['refreshToken'] as Pair;

    const reuse = await refresh(server, first.refreshToken);

    expect(reuse.body.data).toBeNull();
    expect(codes(reuse.body)).toEqual(['INVALID_REFRESH_TOKEN']);
    expect(server.stats.reuseDetections).toBe(1);
    expect(codes((await gql(server, ME, { token: second.accessToken })).body)).toEqual(['UNAUTHENTICATED']);
    expect(codes((await refresh(server, second.refreshToken)).body)).toEqual(['INVALID_REFRESH_TOKEN']);
    expect(server.stats.reuseDetections).toBe(1);
  });

  it('lets only one of two concurrent refreshes with the same token through, and counts the other as reuse', async () => {
    const server = await start();
    const { refreshToken } = await login(server);

    const results = await Promise.all([refresh(server, refreshToken), refresh(server, refreshToken)]);

    expect(results.map(({ body }) => codes(body)?.[0] ?? 'ok').sort()).toEqual(['INVALID_REFRESH_TOKEN', 'ok']);
    expect(server.stats).toMatchObject({ refreshCalls: 2, refreshSuccesses: 1, reuseDetections: 1 });
  });

  it('refuses a malformed token, a foreign token and an access token with INVALID_REFRESH_TOKEN', async () => {
    const server = await start();
    const foreign = await createAuthServer().issueTokens('owner@demo.test');
    const own = await login(server);

    for (const token of ['garbage', foreign.refreshToken, own.accessToken]) {
      expect(codes((await refresh(server, token)).body)).toEqual(['INVALID_REFRESH_TOKEN']);
    }
    expect(server.stats.reuseDetections).toBe(0);
    expect((await refresh(server, own.refreshToken)).body.errors).toBeUndefined();
  });

  it('refuses an expired refresh token with a message saying so', async () => {
    let clock = Date.now();
    const server = await start({ now: () => clock, refreshTokenTtl: 60 });
    const { refreshToken } = await login(server);

    clock += 61_000;
    const { body } = await refresh(server, refreshToken);

    expect(codes(body)).toEqual(['INVALID_REFRESH_TOKEN']);
    expect(body.errors?.[0]?.message).toMatch(/expired/i);
  });
});

describe('logout', () => {
  it('revokes both tokens of the session at once, without an access token', async () => {
    const server = await start();
    const { accessToken, refreshToken } = await login(server);
    const other = await login(server);

    const { body } = await gql(server, LOGOUT, { variables: { token: refreshToken } });

    expect(body).toEqual({ data: { logout: { success: true } } });
    expect(server.stats.logoutCalls).toBe(1);
    expect(codes((await gql(server, ME, { token: accessToken })).body)).toEqual(['UNAUTHENTICATED']);
    expect(codes((await refresh(server, refreshToken)).body)).toEqual(['INVALID_REFRESH_TOKEN']);
    expect(server.stats.reuseDetections).toBe(0);
    expect((await gql(server, ME, { token: other.accessToken })).body.errors).toBeUndefined();
  });

  it('refuses a logout with a spent refresh token, and the session lives on: the newest pair must be revoked', async () => {
    const server = await start();
    const first = await login(server);
    const second = (await refresh(server, first.refreshToken)).body.data?.['refreshToken'] as Pair;

    const { body } = await gql(server, LOGOUT, { variables: { token: first.refreshToken } });

    expect(codes(body)).toEqual(['INVALID_REFRESH_TOKEN']);
    expect(server.stats.reuseDetections).toBe(0);
    expect((await gql(server, ME, { token: second.accessToken })).body.data?.['me']).toMatchObject({
      email: 'owner@demo.test',
    });
    expect((await gql(server, LOGOUT, { variables: { token: second.refreshToken } })).body.data?.['logout']).toEqual({
      success: true,
    });
    expect(codes((await gql(server, ME, { token: second.accessToken })).body)).toEqual(['UNAUTHENTICATED']);
  });

  it('refuses an invalid token or a revoked session with INVALID_REFRESH_TOKEN', async () => {
    const server = await start();
    const { refreshToken } = await login(server);
    await gql(server, LOGOUT, { variables: { token: refreshToken } });

    for (const token of ['garbage', refreshToken]) {
      const { body } = await gql(server, LOGOUT, { variables: { token } });
      expect(body.data).toBeNull();
      expect(codes(body)).toEqual(['INVALID_REFRESH_TOKEN']);
    }
    expect(server.stats.logoutCalls).toBe(3);
  });
});

describe('test controls', () => {
  it('revokeAllSessions refuses the access and refresh tokens of every session', async () => {
    const server = await start();
    const pairs = [await login(server), await server.issueTokens('cashier@demo.test')];

    server.revokeAllSessions();

    for (const { accessToken, refreshToken } of pairs) {
      expect(codes((await gql(server, ME, { token: accessToken })).body)).toEqual(['UNAUTHENTICATED']);
      expect(codes((await refresh(server, refreshToken)).body)).toEqual(['INVALID_REFRESH_TOKEN']);
    }
    expect((await gql(server, ME, { token: (await login(server)).accessToken })).body.errors).toBeUndefined();
  });

  it('issueTokens opens a working session without counting a login, honouring lifetime overrides', async () => {
    const server = await start();
    const { accessToken, refreshToken } = await server.issueTokens('admin@demo.test', {
      accessTokenTtl: 5,
      refreshTokenTtl: 50,
    });

    expect(server.stats.loginCalls).toBe(0);
    expect((await gql(server, ME, { token: accessToken })).body.data?.['me'].id).toBe('u_admin');
    const [access, refreshClaims] = [decodeJwt(accessToken), decodeJwt(refreshToken)];
    expect([access.exp! - access.iat!, refreshClaims.exp! - refreshClaims.iat!]).toEqual([5, 50]);
    expect((await refresh(server, refreshToken)).body.errors).toBeUndefined();
    await expect(server.issueTokens('nobody@demo.test')).rejects.toThrow(/nobody@demo\.test/);
  });

  it('counts every POST /graphql and records its Authorization header, empty when absent', async () => {
    const server = await start();
    const { accessToken } = await login(server);
    await gql(server, ME, { token: accessToken });
    await fetch(server.url, { method: 'POST', headers: { authorization: 'Bearer x' }, body: '{' });
    await fetch(server.url, { method: 'OPTIONS' });

    expect(server.stats.requests).toBe(3);
    expect(server.stats.authorizationHeaders).toEqual(['', `Bearer ${accessToken}`, 'Bearer x']);
  });

  it('keeps only the last 10 000 Authorization headers and submitted refresh tokens', async () => {
    const server = await start();
    const { authorizationHeaders, refreshTokensSubmitted } = server.stats;
    for (const history of [authorizationHeaders, refreshTokensSubmitted]) {
      history.push(...Array.from({ length: 10_000 }, (_, i) => `old ${i}`));
    }

    await gql(server, REFRESH, { variables: { token: 'newest' }, authorization: 'Bearer newest' });

    for (const [history, newest] of [
      [authorizationHeaders, 'Bearer newest'],
      [refreshTokensSubmitted, 'newest'],
    ] as const) {
      expect(history).toHaveLength(10_000);
      expect(history[0]).toBe('old 1');
      expect(history.at(-1)).toBe(newest);
    }
  });

  it('resetStats zeroes every counter and empties the histories in place', async () => {
    const server = await start();
    const { stats } = server;
    const { accessToken, refreshToken } = await login(server);
    await gql(server, ME, { token: accessToken });
    await refresh(server, refreshToken);

    server.resetStats();

    expect(server.stats).toBe(stats);
    expect(stats).toEqual({
      loginCalls: 0,
      refreshCalls: 0,
      refreshSuccesses: 0,
      reuseDetections: 0,
      logoutCalls: 0,
      renames: 0,
      ...NO_SIGN_IN_DOOR_CALLS,
      tokenExpired: 0,
      requests: 0,
      authorizationHeaders: [],
      refreshTokensSubmitted: [],
      refreshTokensIssued: [],
    });
  });
});

describe('authErrorStatus', () => {
  it('answers auth errors with 200 by default', async () => {
    const server = await start();

    expect((await gql(server, ME)).status).toBe(200);
    expect((await refresh(server, 'garbage')).status).toBe(200);
  });

  it('answers with the configured status when every error is an auth error, body unchanged', async () => {
    let clock = Date.now();
    const server = await start({ authErrorStatus: 401, now: () => clock });
    const { accessToken } = await login(server);
    clock += 901_000;

    const expired = await gql(server, '{ me { id } ping }', { token: accessToken });
    const cases = [
      expired,
      await gql(server, ME),
      await refresh(server, 'garbage'),
      await gql(server, LOGIN, { variables: { email: 'owner@demo.test', password: 'nope' } }),
    ];

    expect(cases.map(({ status }) => status)).toEqual([401, 401, 401, 401]);
    expect(expired.headers.get('content-type')).toMatch(/^application\/json/);
    expect(expired.body).toEqual({
      data: null,
      errors: [expect.objectContaining({ extensions: { code: 'TOKEN_EXPIRED' } })],
    });
    expect(server.stats.tokenExpired).toBe(1);
  });

  it('keeps 200 for successes and for errors that are not auth errors', async () => {
    const server = await start({ authErrorStatus: 401 });

    expect((await gql(server, LOGIN, { variables: { email: 'owner@demo.test', password: 'owner-pass' } })).status).toBe(
      200,
    );
    expect((await gql(server, '{ nope }')).status).toBe(200);
  });
});

describe('faults', () => {
  it('delayMs delays the named field only', async () => {
    const server = await start();
    const { accessToken } = await login(server);
    server.faults.delayMs['me'] = 150;

    const timed = async (query: string) => {
      const startedAt = performance.now();
      await gql(server, query, { token: accessToken });
      return performance.now() - startedAt;
    };

    expect(await timed(ME)).toBeGreaterThanOrEqual(140);
    expect(await timed('{ ping }')).toBeLessThan(100);
  });

  it('dropRefreshResponses rotates server-side, then destroys the socket, and counts down', async () => {
    const server = await start();
    const { refreshToken } = await login(server);
    server.faults.dropRefreshResponses = 1;

    await expect(refresh(server, refreshToken)).rejects.toThrow();

    expect(server.faults.dropRefreshResponses).toBe(0);
    expect(server.stats).toMatchObject({ refreshCalls: 1, refreshSuccesses: 1 });
    expect(codes((await refresh(server, refreshToken)).body)).toEqual(['INVALID_REFRESH_TOKEN']);
    expect(server.stats.reuseDetections).toBe(1);
    expect((await refresh(server, (await login(server)).refreshToken)).body.errors).toBeUndefined();
  });

  it('failNext answers the next request selecting its field with the raw response, executing nothing', async () => {
    const server = await start();
    const { accessToken, refreshToken } = await login(server);
    server.faults.failNext.push({ field: 'refreshToken', status: 502, body: 'Bad gateway', contentType: 'text/plain' });

    expect((await gql(server, ME, { token: accessToken })).body.errors).toBeUndefined();
    expect(server.faults.failNext).toHaveLength(1);

    const response = await fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: REFRESH, variables: { token: refreshToken } }),
    });

    expect(response.status).toBe(502);
    expect(response.headers.get('content-type')).toBe('text/plain');
    expect(await response.text()).toBe('Bad gateway');
    expect(server.faults.failNext).toHaveLength(0);
    expect(server.stats).toMatchObject({ requests: 3, refreshCalls: 0 });
    expect((await refresh(server, refreshToken)).body.errors).toBeUndefined();
  });

  it('failNext without a field applies to any request, as application/json by default', async () => {
    const server = await start();
    const body = JSON.stringify({ errors: [{ message: 'nope', extensions: { code: 'UNAUTHENTICATED' } }] });
    server.faults.failNext.push({ status: 401, body }, { status: 500, body: '{}' });

    const first = await gql(server, LOGIN, { variables: { email: 'owner@demo.test', password: 'owner-pass' } });
    const second = await gql(server, ME);

    expect([first.status, second.status]).toEqual([401, 500]);
    expect(first.headers.get('content-type')).toBe('application/json');
    expect(first.body).toEqual(JSON.parse(body));
    expect(server.stats.loginCalls).toBe(0);
  });

  it('hangRefresh leaves refreshes unanswered until close() destroys their sockets', async () => {
    const server = await start();
    const { refreshToken } = await login(server);
    server.faults.hangRefresh = true;

    const pending = refresh(server, refreshToken);
    const outcome = pending.then(
      () => 'answered',
      () => 'failed',
    );
    await vi.waitFor(() => expect(server.stats.refreshCalls).toBe(1));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await Promise.race([outcome, 'still pending'])).toBe('still pending');

    await server.close();

    expect(await outcome).toBe('failed');
    expect(server.stats.refreshSuccesses).toBe(0);
  });

  it('close() ends a delayed request at once', async () => {
    const server = await start();
    server.faults.delayMs['loginWithEmailPassword'] = 10_000;

    const startedAt = performance.now();
    const pending = login(server);
    await vi.waitFor(() => expect(server.stats.loginCalls).toBe(1));
    await server.close();

    await expect(pending).rejects.toThrow();
    expect(performance.now() - startedAt).toBeLessThan(1_000);
  });
});

describe('control endpoints', () => {
  it('POST /control/expire-access-tokens expires the access tokens issued so far', async () => {
    const server = await start();
    const { accessToken } = await login(server);

    const response = await control(server, '/control/expire-access-tokens');

    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(await response.json()).toEqual({ ok: true });
    expect(codes((await gql(server, ME, { token: accessToken })).body)).toEqual(['TOKEN_EXPIRED']);
  });

  it('POST /control/revoke-sessions revokes every session', async () => {
    const server = await start();
    const { accessToken } = await login(server);

    expect((await control(server, '/control/revoke-sessions')).status).toBe(200);

    expect(codes((await gql(server, ME, { token: accessToken })).body)).toEqual(['UNAUTHENTICATED']);
  });

  it('GET /control/stats reports the counters and the number of recorded headers; POST /control/reset-stats zeroes them', async () => {
    const server = await start();
    const { refreshToken } = await login(server);
    await refresh(server, refreshToken);

    const stats = await control(server, '/control/stats', 'GET');

    expect(stats.headers.get('access-control-allow-origin')).toBe('*');
    expect(await stats.json()).toEqual({
      loginCalls: 1,
      refreshCalls: 1,
      refreshSuccesses: 1,
      reuseDetections: 0,
      logoutCalls: 0,
      renames: 0,
      ...NO_SIGN_IN_DOOR_CALLS,
      tokenExpired: 0,
      requests: 2,
      authorizationHeaders: 2,
    });

    expect((await control(server, '/control/reset-stats')).status).toBe(200);
    expect(server.stats).toMatchObject({ loginCalls: 0, requests: 0, authorizationHeaders: [] });
  });
});
