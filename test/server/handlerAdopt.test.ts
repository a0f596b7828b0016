import { describe, expect, it } from 'vitest';
import { createTokenHandler, type TokenHandlerOptions } from '../../src/server/createTokenHandler';
import { makeJwt } from '../helpers/jwt';
import { useCleanups } from '../helpers/overHttp';
import {
  COOKIE,
  openCookie,
  parseSetCookie,
  refreshUpstream,
  register,
  startDoorsHandler,
  upstreamCounts,
} from '../helpers/tokenHandler';

// handler.adopt(request, pair, user): a pair the app's own server obtained (an OAuth callback, an invitation link)
// sealed into the browser's cookie, against the package's test server with the contract's 15-minute tokens. What
// reached the upstream is read from its own counters.

const cleanups = useCleanups();
const ADMIN = { id: 'u_admin', email: 'admin@demo.test', role: 'ADMIN' };

describe('handler.adopt', () => {
  it('seals the pair into a cookie that /refresh restores with no upstream call while the access token is fresh', async () => {
    const rig = await startDoorsHandler(cleanups);
    // The app's server obtained a pair (an OAuth callback): nothing the handler sent.
    const pair = await rig.upstream.issueTokens(ADMIN.email);
    const callback = new Request(`${rig.origin}/auth/callback?code=c`);

    const adopted = await rig.handler.adopt(callback, pair, ADMIN);
    expect(adopted.user).toEqual(ADMIN);
    expect(adopted.setCookie).toHaveLength(1);
    const { name, value, attributes } = parseSetCookie(adopted.setCookie[0]!);
    expect(name).toBe(COOKIE);
    expect(attributes).toMatchObject({ httponly: '', secure: '', samesite: 'Strict', path: '/' });
    expect(await openCookie(value)).toMatchObject({ r: pair.refreshToken, a: pair.accessToken });
    // issueTokens is the server's own call, in-process: no request, and nothing counted.
    expect(upstreamCounts(rig.upstream)).toEqual({});

    // The redirect's Set-Cookie reached the browser; the page loads and restores as after a reload.
    rig.jar.store(adopted.setCookie);
    const restored = await rig.post('refresh', {});
    expect(restored.status).toBe(200);
    expect(restored.body).toEqual({ accessToken: pair.accessToken, user: ADMIN, age: expect.any(Number) });
    expect(restored.body.age).toBeLessThan(5_000);
    expect(restored.text).not.toContain(pair.refreshToken);
    expect(upstreamCounts(rig.upstream)).toEqual({});
  });

  it('revokes the session the browser had; a request that still carries its cookie is told it was replaced', async () => {
    const rig = await startDoorsHandler(cleanups);
    expect((await register(rig)).status).toBe(200);
    const [previous] = rig.upstream.stats.refreshTokensIssued;
    const before = rig.jar.header()!;

    const pair = await rig.upstream.issueTokens(ADMIN.email);
    const adopted = await rig.handler.adopt({ headers: new Headers({ cookie: before }) }, pair);
    expect(adopted.user).toBeNull();
    expect(rig.upstream.stats.logoutCalls).toBe(1);
    expect(await refreshUpstream(rig.upstream, previous!)).toBe('INVALID_REFRESH_TOKEN');

    const late = await rig.post('refresh', {}, { cookie: before });
    expect(late.status).toBe(401);
    expect(late.body.error.code).toBe('SESSION_ENDED');
    // The new cookie, set by the answer that replaced it, is not cleared.
    expect(late.setCookie).toEqual([]);

    rig.jar.store(adopted.setCookie);
    // No user given: the page reads the access token's claims. Upstream: the door, the revocation, and the test's
    // own check above (its refresh); nothing for the late request or the restore.
    expect((await rig.post('refresh', {})).body).toMatchObject({ accessToken: pair.accessToken, user: null });
    expect(upstreamCounts(rig.upstream)).toEqual({ requests: 3, registerCalls: 1, logoutCalls: 1, refreshCalls: 1 });
  });

  it('times the access token by its own claims: one issued 13 minutes before it was adopted is renewed at once', async () => {
    const clock = { offset: 0 };
    const rig = await startDoorsHandler(cleanups, { now: () => Date.now() + clock.offset });
    const pair = await rig.upstream.issueTokens(ADMIN.email);
    clock.offset = 13 * 60_000;

    rig.jar.store((await rig.handler.adopt(new Request(rig.origin), pair, ADMIN)).setCookie);
    const restored = await rig.post('refresh', {});
    expect(restored.status).toBe(200);
    expect(restored.body.accessToken).not.toBe(pair.accessToken);
    expect(upstreamCounts(rig.upstream)).toEqual({ requests: 1, refreshCalls: 1, refreshSuccesses: 1 });
  });

  it.each([
    ['no access token', { refreshToken: 'r' }, 'without an accessToken.'],
    [
      'an access token that is not a JWT',
      { accessToken: 'opaque', refreshToken: 'r' },
      'whose accessToken is not a valid JWT (Invalid token specified',
    ],
    [
      'an access token without exp',
      { accessToken: makeJwt({ sub: 'u_admin', iat: 1 }), refreshToken: 'r' },
      'whose accessToken has no exp claim.',
    ],
    [
      'an empty refresh token',
      { accessToken: makeJwt({ sub: 'u_admin', exp: 4e9 }), refreshToken: '' },
      'without a refreshToken.',
    ],
  ])('refuses %s with a TypeError that says so, and changes nothing', async (_name, pair, words) => {
    const rig = await startDoorsHandler(cleanups);
    await rig.post('login', { email: ADMIN.email, password: 'admin-pass' });
    const request = { headers: new Headers({ cookie: rig.jar.header()! }) };
    const before = upstreamCounts(rig.upstream);

    const refused = await rig.handler.adopt(request, pair as never).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(TypeError);
    expect((refused as Error).message).toMatch(/^apollo-link-token-pair: handler\.adopt\(\) was handed a pair /);
    expect((refused as Error).message).toContain(words);
    // The browser's session was not touched.
    expect(upstreamCounts(rig.upstream)).toEqual(before);
    expect((await rig.post('refresh', {})).body.user).toMatchObject({ id: 'u_admin' });
  });

  it('refuses a user without an id with a TypeError', async () => {
    const rig = await startDoorsHandler(cleanups);
    const pair = await rig.upstream.issueTokens(ADMIN.email);
    await expect(rig.handler.adopt(new Request(rig.origin), pair, { email: ADMIN.email } as never)).rejects.toThrow(
      new TypeError('apollo-link-token-pair: handler.adopt() was handed a user without an id.'),
    );
  });

  it('throws the misconfiguration of a handler without its secret', async () => {
    const handler = createTokenHandler({ uri: 'http://127.0.0.1:1/graphql' } as TokenHandlerOptions);
    const pair = { accessToken: makeJwt({ sub: 'u_admin', exp: 4e9 }), refreshToken: 'r' };
    await expect(handler.adopt(new Request('http://127.0.0.1:3000/'), pair)).rejects.toThrow(/has no `secret`/);
  });
});
