import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { createTestAuthServer, createTestClock } from '../../src/testing';
import { codes, LOGIN, LOGOUT, ME } from './helpers';
import { gql, login, refresh, useListeningServers, type Pair } from './httpHelpers';

const start = useListeningServers();

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
    const foreign = await createTestAuthServer().issueTokens('owner@demo.test');
    const own = await login(server);

    for (const token of [foreign.accessToken, own.refreshToken]) {
      expect(codes((await gql(server, ME, { token })).body)).toEqual(['UNAUTHENTICATED']);
    }
    expect(server.stats.tokenExpired).toBe(0);
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
    const foreign = await createTestAuthServer().issueTokens('owner@demo.test');
    const own = await login(server);

    for (const token of ['garbage', foreign.refreshToken, own.accessToken]) {
      expect(codes((await refresh(server, token)).body)).toEqual(['INVALID_REFRESH_TOKEN']);
    }
    expect(server.stats.reuseDetections).toBe(0);
    expect((await refresh(server, own.refreshToken)).body.errors).toBeUndefined();
  });

  it('refuses an expired refresh token with a message saying so', async () => {
    const clock = createTestClock();
    const server = await start({ clock, refreshTokenTtl: 60 });
    const { refreshToken } = await login(server);

    await clock.advance(61_000);
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

    const { body } = await gql(server, LOGOUT, { variables: { refreshToken } });

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

    const { body } = await gql(server, LOGOUT, { variables: { refreshToken: first.refreshToken } });

    expect(codes(body)).toEqual(['INVALID_REFRESH_TOKEN']);
    expect(server.stats.reuseDetections).toBe(0);
    expect((await gql(server, ME, { token: second.accessToken })).body.data?.['me']).toMatchObject({
      email: 'owner@demo.test',
    });
    expect(
      (await gql(server, LOGOUT, { variables: { refreshToken: second.refreshToken } })).body.data?.['logout'],
    ).toEqual({ success: true });
    expect(codes((await gql(server, ME, { token: second.accessToken })).body)).toEqual(['UNAUTHENTICATED']);
  });

  it('refuses an invalid token or a revoked session with INVALID_REFRESH_TOKEN', async () => {
    const server = await start();
    const { refreshToken } = await login(server);
    await gql(server, LOGOUT, { variables: { refreshToken } });

    for (const token of ['garbage', refreshToken]) {
      const { body } = await gql(server, LOGOUT, { variables: { refreshToken: token } });
      expect(body.data).toBeNull();
      expect(codes(body)).toEqual(['INVALID_REFRESH_TOKEN']);
    }
    expect(server.stats.logoutCalls).toBe(3);
  });
});

describe('sessions the test opens and revokes', () => {
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
});
