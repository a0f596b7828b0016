import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTokenHandler } from '../../src/server/createTokenHandler';
import { toNodeHandler } from '../../src/server/toNodeHandler';
import { useCleanups } from '../helpers/overHttp';
import {
  COOKIE,
  type HandlerAnswer,
  openCookie,
  parseSetCookie,
  refreshUpstream,
  startTokenHandler,
  type TokenHandlerRig,
  until,
} from '../helpers/tokenHandler';

const cleanups = useCleanups();
const ADMIN = { email: 'admin@demo.test', password: 'admin-pass' };
const DAY = 86_400_000;

/** A handler clock that runs with real time, plus what a test adds. */
function createClock() {
  const clock = { offset: 0, now: () => Date.now() + clock.offset };
  return clock;
}

async function signedIn(
  options?: Parameters<typeof startTokenHandler>[1],
): Promise<TokenHandlerRig & { accessToken: string }> {
  const rig = await startTokenHandler(cleanups, options);
  const login = await rig.post('login', ADMIN);
  expect(login.status).toBe(200);
  return Object.assign(rig, { accessToken: login.body.accessToken as string });
}

function spent(rig: TokenHandlerRig) {
  const { loginCalls, refreshCalls, logoutCalls } = rig.upstream.stats;
  return { loginCalls, refreshCalls, logoutCalls };
}

function expectClearingCookie(answer: HandlerAnswer) {
  expect(answer.setCookie).toHaveLength(1);
  const { name, value, attributes } = parseSetCookie(answer.setCookie[0]!);
  expect({ name, value, maxAge: attributes['max-age'] }).toEqual({ name: COOKIE, value: '', maxAge: '0' });
}

/** Flips one character in the middle of the sealed ciphertext (not its last one, whose low bits may be padding). */
function tamper(value: string): string {
  const at = value.lastIndexOf('.') + 10;
  return `${value.slice(0, at)}${value[at] === 'A' ? 'B' : 'A'}${value.slice(at + 1)}`;
}

describe('login', () => {
  it('answers the access token and the user, and seals the refresh token in a __Host- cookie', async () => {
    const rig = await startTokenHandler(cleanups);
    const answer = await rig.post('login', ADMIN);

    expect(answer.status).toBe(200);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(answer.body).toEqual({
      accessToken: expect.any(String),
      user: { id: 'u_admin', email: 'admin@demo.test', role: 'ADMIN' },
      age: 0,
    });
    const [issued] = rig.upstream.stats.refreshTokensIssued;
    expect(answer.text).not.toContain(issued);
    expect(Object.keys(answer.body)).not.toContain('refreshToken');

    expect(answer.setCookie).toHaveLength(1);
    const { name, value, attributes } = parseSetCookie(answer.setCookie[0]!);
    expect(name).toBe(COOKIE);
    expect(Object.keys(attributes).sort()).toEqual(['httponly', 'max-age', 'path', 'samesite', 'secure']);
    expect(attributes).toMatchObject({ httponly: '', secure: '', samesite: 'Strict', path: '/' });
    expect(Math.abs(Number(attributes['max-age']) - 2_592_000)).toBeLessThanOrEqual(2);
    expect(value).not.toContain(issued);
    expect(await openCookie(value)).toMatchObject({ r: issued, a: answer.body.accessToken });
  });

  it('refuses a wrong password with 401 INVALID_CREDENTIALS and sets no cookie', async () => {
    const rig = await startTokenHandler(cleanups);
    const answer = await rig.post('login', { email: ADMIN.email, password: 'wrong' });

    expect(answer.status).toBe(401);
    expect(answer.body.error.code).toBe('INVALID_CREDENTIALS');
    expect(answer.setCookie).toEqual([]);
    expect(rig.upstream.stats.loginCalls).toBe(1);
  });

  it('answers 400 BAD_REQUEST to a body that is not JSON or lacks the credentials, without calling the upstream', async () => {
    const rig = await startTokenHandler(cleanups);
    const notJson = await fetch(`${rig.origin}/auth/login`, {
      method: 'POST',
      headers: { origin: rig.origin, 'x-token-handler': '1' },
      body: '{nope',
    });
    expect(notJson.status).toBe(400);
    expect((await rig.post('login', [ADMIN])).status).toBe(400);
    expect((await rig.post('login', { email: ADMIN.email })).body.error.code).toBe('BAD_REQUEST');
    expect(rig.upstream.stats.loginCalls).toBe(0);
  });

  it('revokes upstream the session whose cookie the browser held before signing in again', async () => {
    const rig = await signedIn();
    const [previous] = rig.upstream.stats.refreshTokensIssued;
    const again = await rig.post('login', { email: 'cashier@demo.test', password: 'cashier-pass' });

    expect(again.status).toBe(200);
    expect(again.body.user.email).toBe('cashier@demo.test');
    await until(() => rig.upstream.stats.logoutCalls === 1);
    expect(await refreshUpstream(rig.upstream, previous!)).toBe('INVALID_REFRESH_TOKEN');
    // The new session is untouched.
    const refreshed = await rig.post('refresh', { accessToken: again.body.accessToken });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.user.email).toBe('cashier@demo.test');
  });
});

describe('CSRF and routing', () => {
  const forged: Array<[string, { origin?: string | null; headers?: Record<string, string | null> }]> = [
    ['without the x-token-handler header', { headers: { 'x-token-handler': null } }],
    ['from a foreign origin', { origin: 'https://evil.example' }],
    ['without an Origin header', { origin: null }],
  ];

  it.each(['login', 'refresh', 'logout'])(
    'refuses forged %s requests with 403 FORBIDDEN and spends nothing',
    async (route) => {
      const rig = await signedIn();
      const before = spent(rig);
      const body = route === 'login' ? ADMIN : { accessToken: rig.accessToken };

      for (const [, options] of forged) {
        const answer = await rig.post(route, body, options);
        expect(answer.status).toBe(403);
        expect(answer.body.error.code).toBe('FORBIDDEN');
        expect(answer.setCookie).toEqual([]);
      }
      expect(spent(rig)).toEqual(before);

      const still = await rig.post('refresh', { accessToken: rig.accessToken });
      expect(still.status).toBe(200);
      expect(rig.upstream.stats.refreshCalls).toBe(1);
    },
  );

  it('serves an allowed origin with credentialed CORS headers', async () => {
    const rig = await startTokenHandler(cleanups, { handler: { allowedOrigins: ['https://app.example'] } });
    const answer = await rig.post('login', ADMIN, { origin: 'https://app.example' });

    expect(answer.status).toBe(200);
    expect(answer.headers.get('access-control-allow-origin')).toBe('https://app.example');
    expect(answer.headers.get('access-control-allow-credentials')).toBe('true');
    const own = await rig.post('refresh', {});
    expect(own.status).toBe(200);
    expect(own.headers.get('access-control-allow-origin')).toBeNull();
    // Its page can read a refusal too.
    const refused = await rig.post(
      'refresh',
      {},
      { origin: 'https://app.example', headers: { 'x-token-handler': null } },
    );
    expect(refused.status).toBe(403);
    expect(refused.headers.get('access-control-allow-origin')).toBe('https://app.example');
  });

  it('answers the preflight of an allowed origin with 204, allowing x-token-handler, and not that of another', async () => {
    const rig = await startTokenHandler(cleanups, { handler: { allowedOrigins: ['https://app.example'] } });
    const preflight = (origin: string) =>
      fetch(`${rig.origin}/auth/refresh`, {
        method: 'OPTIONS',
        headers: {
          origin,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type,x-token-handler',
        },
      });

    const allowed = await preflight('https://app.example');
    expect(allowed.status).toBe(204);
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://app.example');
    expect(allowed.headers.get('access-control-allow-credentials')).toBe('true');
    expect(allowed.headers.get('access-control-allow-headers')?.split(/,\s*/)).toContain('x-token-handler');

    const foreign = await preflight('https://evil.example');
    expect(foreign.status).not.toBe(204);
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('answers GET with 405 and an unknown route with 404', async () => {
    const rig = await startTokenHandler(cleanups);
    const get = await rig.post('refresh', undefined, { method: 'GET' });
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    expect(get.body.error.code).toBe('METHOD_NOT_ALLOWED');

    const unknown = await rig.post('whoami', {});
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('NOT_FOUND');
  });
});

describe('the cookie', () => {
  it('refuses an altered cookie with 401 SESSION_INVALID, clears it and spends nothing', async () => {
    const rig = await signedIn();
    const answer = await rig.post(
      'refresh',
      { accessToken: rig.accessToken },
      { cookie: `${COOKIE}=${tamper(rig.jar.get()!)}` },
    );

    expect(answer.status).toBe(401);
    expect(answer.body.error.code).toBe('SESSION_INVALID');
    expectClearingCookie(answer);
    expect(rig.upstream.stats.refreshCalls).toBe(0);
  });

  it('refuses a cookie sealed with another secret with 401 SESSION_INVALID', async () => {
    const rig = await signedIn();
    const other = await startTokenHandler(cleanups, {
      upstream: rig.upstream,
      handler: { secret: 'another-secret-that-is-also-32-bytes-or-more' },
    });
    const answer = await other.post('refresh', { accessToken: rig.accessToken }, { cookie: rig.jar.header()! });

    expect(answer.status).toBe(401);
    expect(answer.body.error.code).toBe('SESSION_INVALID');
    expectClearingCookie(answer);
    expect(rig.upstream.stats.refreshCalls).toBe(0);
  });

  it('answers NO_SESSION without a cookie, as 200 with no access token (no failed request in the console)', async () => {
    const rig = await startTokenHandler(cleanups);
    const answer = await rig.post('refresh', {});
    expect(answer.status).toBe(200);
    expect(answer.body.accessToken).toBeNull();
    expect(answer.body.error.code).toBe('NO_SESSION');
    expect(answer.setCookie).toEqual([]);
  });

  it('refuses a cookie past the refresh token life with 401 SESSION_EXPIRED and clears it', async () => {
    const clock = createClock();
    const rig = await signedIn({ handler: { now: clock.now } });
    clock.offset = 30 * DAY + 1000;
    const answer = await rig.post('refresh', {});

    expect(answer.status).toBe(401);
    expect(answer.body.error.code).toBe('SESSION_EXPIRED');
    expectClearingCookie(answer);
    expect(rig.upstream.stats.refreshCalls).toBe(0);
  });
});

describe('refresh', () => {
  it('renews the pair once upstream when the page presents the cookie’s own access token', async () => {
    const rig = await signedIn();
    const first = rig.jar.get();
    const answer = await rig.post('refresh', { accessToken: rig.accessToken });

    expect(answer.status).toBe(200);
    expect(answer.body.accessToken).not.toBe(rig.accessToken);
    expect(answer.body.user.email).toBe('admin@demo.test');
    expect(rig.upstream.stats.refreshCalls).toBe(1);
    expect(rig.jar.get()).not.toBe(first);
    expect(await openCookie(rig.jar.get()!)).toMatchObject({
      r: rig.upstream.stats.refreshTokensIssued.at(-1),
      a: answer.body.accessToken,
    });
  });

  it('hands out the cookie’s fresh token on page load, with its age, without calling the upstream or setting a cookie', async () => {
    // The handler's clock stands still but for the 5 s the test moves it: the age it answers is exact.
    const clock = { at: Date.now() };
    const rig = await signedIn({ handler: { now: () => clock.at } });
    clock.at += 5_000;
    const answer = await rig.post('refresh', {});

    expect(answer.status).toBe(200);
    expect(answer.body.accessToken).toBe(rig.accessToken);
    expect(answer.body.age).toBe(5_000);
    expect(answer.setCookie).toEqual([]);
    expect(rig.upstream.stats.refreshCalls).toBe(0);
  });

  it('renews a token the upstream declared expired once the page presents it', async () => {
    const rig = await signedIn();
    rig.upstream.expireAllAccessTokens();
    const answer = await rig.post('refresh', { accessToken: rig.accessToken });

    expect(answer.status).toBe(200);
    expect(answer.body.accessToken).not.toBe(rig.accessToken);
    expect(rig.upstream.stats.refreshSuccesses).toBe(1);
  });

  it('renews on page load when the cookie’s token is near its end by the handler’s clock', async () => {
    const clock = createClock();
    const rig = await signedIn({ handler: { now: clock.now } });
    clock.offset = 13 * 60_000;
    const answer = await rig.post('refresh', {});

    expect(answer.status).toBe(200);
    expect(answer.body.accessToken).not.toBe(rig.accessToken);
    expect(answer.setCookie).toHaveLength(1);
    expect(rig.upstream.stats.refreshCalls).toBe(1);
  });

  it('renews once upstream for 50 concurrent refreshes of one cookie, and all receive the same pair', async () => {
    const rig = await signedIn();
    const cookie = rig.jar.header()!;
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => rig.post('refresh', { accessToken: rig.accessToken }, { cookie })),
    );

    expect(rig.upstream.stats.refreshCalls).toBe(1);
    expect(rig.upstream.stats.reuseDetections).toBe(0);
    expect(answers.map((answer) => answer.status)).toEqual(Array(50).fill(200));
    const tokens = new Set(answers.map((answer) => answer.body.accessToken));
    expect(tokens.size).toBe(1);
    expect(tokens.has(rig.accessToken)).toBe(false);
    // Each answer seals the cookie anew (a fresh IV), so the bytes differ; what they hold must not.
    const sessions = await Promise.all(
      answers.map((answer) => (expect(answer.setCookie).toHaveLength(1), openCookie(answer.setCookie[0]!))),
    );
    const newest = rig.upstream.stats.refreshTokensIssued.at(-1);
    expect(new Set(sessions.map((session) => `${session?.r}|${session?.a}`))).toEqual(
      new Set([`${newest}|${[...tokens][0]}`]),
    );
  });

  it('gives a late request with the old cookie the same answer within graceTime, and refuses it after', async () => {
    const clock = createClock();
    const rig = await signedIn({ handler: { now: clock.now } });
    const old = rig.jar.header()!;
    const renewal = await rig.post('refresh', { accessToken: rig.accessToken }, { cookie: old });
    expect(renewal.status).toBe(200);

    clock.offset = 29_000;
    const late = await rig.post('refresh', { accessToken: rig.accessToken }, { cookie: old });
    expect(late.status).toBe(200);
    expect(late.body.accessToken).toBe(renewal.body.accessToken);
    expect((await openCookie(late.setCookie[0]!))?.r).toBe((await openCookie(renewal.setCookie[0]!))?.r);
    expect(rig.upstream.stats.refreshCalls).toBe(1);

    // Past graceTime the handler has forgotten the renewal's answer, not that it sent the old refresh token: it
    // refuses the cookie without sending that token again, which the upstream would see reused (and before, did).
    clock.offset = 31_000;
    const stale = await rig.post('refresh', { accessToken: rig.accessToken }, { cookie: old });
    expect(stale.status).toBe(401);
    expect(stale.body.error.code).toBe('SESSION_LOST');
    expectClearingCookie(stale);
    expect(rig.upstream.stats.refreshCalls).toBe(1);
    expect(rig.upstream.stats.reuseDetections).toBe(0);
  });

  it('refuses the old cookie as soon as a graceTime shorter than the upstream timeout is over, without a 503', async () => {
    const clock = createClock();
    const rig = await signedIn({ handler: { now: clock.now, graceTime: 100, timeout: 300 } });
    const old = rig.jar.header()!;
    expect((await rig.post('refresh', { accessToken: rig.accessToken }, { cookie: old })).status).toBe(200);

    // Past graceTime (100 ms), but within the claim the rotation took (timeout + 1 s).
    clock.offset = 1000;
    const started = Date.now();
    const stale = await rig.post('refresh', { accessToken: rig.accessToken }, { cookie: old });
    expect(stale.status).toBe(401);
    expect(stale.body.error.code).toBe('SESSION_LOST');
    expect(rig.upstream.stats.reuseDetections).toBe(0);
    expect(Date.now() - started).toBeLessThan(500);
  });

  it('ends the session with 401 SESSION_REVOKED and clears the cookie when the upstream revoked it', async () => {
    const rig = await signedIn();
    rig.upstream.revokeAllSessions();
    const answer = await rig.post('refresh', { accessToken: rig.accessToken });

    expect(answer.status).toBe(401);
    expect(answer.body.error.code).toBe('SESSION_REVOKED');
    expectClearingCookie(answer);
  });

  it('answers 503 UPSTREAM_UNAVAILABLE and keeps the cookie while the upstream fails, then renews once it recovers', async () => {
    const rig = await signedIn();
    const cookie = rig.jar.get();
    rig.upstream.faults.failNext.push({
      field: 'refreshToken',
      status: 503,
      body: 'Service Unavailable',
      contentType: 'text/plain',
    });
    const failed = await rig.post('refresh', { accessToken: rig.accessToken });

    expect(failed.status).toBe(503);
    expect(failed.body.error.code).toBe('UPSTREAM_UNAVAILABLE');
    expect(failed.setCookie).toEqual([]);
    expect(rig.jar.get()).toBe(cookie);

    const recovered = await rig.post('refresh', { accessToken: rig.accessToken });
    expect(recovered.status).toBe(200);
    expect(recovered.body.accessToken).not.toBe(rig.accessToken);
    expect(rig.upstream.stats.refreshSuccesses).toBe(1);
  });

  it('answers 503 UPSTREAM_UNAVAILABLE and keeps the cookie when the upstream is down', async () => {
    const rig = await signedIn();
    await rig.upstream.close();
    const answer = await rig.post('refresh', { accessToken: rig.accessToken });

    expect(answer.status).toBe(503);
    expect(answer.body.error.code).toBe('UPSTREAM_UNAVAILABLE');
    expect(answer.setCookie).toEqual([]);
  });

  it('answers 503 when the upstream does not answer within timeout, and lets a retry renew', async () => {
    const rig = await signedIn({ handler: { timeout: 200 } });
    rig.upstream.faults.hangRefresh = true;
    const hung = await rig.post('refresh', { accessToken: rig.accessToken });
    expect(hung.status).toBe(503);
    expect(hung.body.error.code).toBe('UPSTREAM_UNAVAILABLE');
    expect(hung.setCookie).toEqual([]);

    rig.upstream.faults.hangRefresh = false;
    const retry = await rig.post('refresh', { accessToken: rig.accessToken });
    expect(retry.status).toBe(200);
    expect(rig.upstream.stats.refreshSuccesses).toBe(1);
  });
});

describe('logout', () => {
  it('clears the cookie, revokes upstream, and the old cookie is refused afterwards', async () => {
    const rig = await signedIn();
    const old = rig.jar.header()!;
    const answer = await rig.post('logout', {});

    expect(answer.status).toBe(200);
    expectClearingCookie(answer);
    expect(rig.jar.get()).toBeUndefined();
    expect(rig.upstream.stats.logoutCalls).toBe(1);
    expect(await refreshUpstream(rig.upstream, rig.upstream.stats.refreshTokensIssued[0]!)).toBe(
      'INVALID_REFRESH_TOKEN',
    );

    const presented = await rig.post('refresh', { accessToken: rig.accessToken }, { cookie: old });
    expect(presented.status).toBe(401);
    expect(['SESSION_ENDED', 'SESSION_REVOKED']).toContain(presented.body.error.code);
    expectClearingCookie(presented);
  });

  it('answers 200 and clears the cookie when the session was revoked upstream already: a logout asks for nothing more', async () => {
    const rig = await signedIn();
    rig.upstream.revokeAllSessions();
    const answer = await rig.post('logout', {});
    expect(answer.status).toBe(200);
    expectClearingCookie(answer);
    expect(rig.upstream.stats.logoutCalls).toBe(1);
  });

  it('refuses the old cookie on page load right after logout instead of handing out its access token', async () => {
    const rig = await signedIn();
    const old = rig.jar.header()!;
    await rig.post('logout', {});

    const pageLoad = await rig.post('refresh', {}, { cookie: old });
    expect(pageLoad.status).toBe(401);
    expect(pageLoad.body.error.code).toBe('SESSION_ENDED');
    expect(pageLoad.text).not.toContain(rig.accessToken);
  });

  it('answers 200 without a cookie and calls nobody', async () => {
    const rig = await startTokenHandler(cleanups);
    const answer = await rig.post('logout', {});
    expect(answer.status).toBe(200);
    expect(rig.upstream.stats.logoutCalls).toBe(0);
  });

  it('revokes the pair a rotation in flight is issuing, not only the one the cookie holds', async () => {
    const rig = await signedIn();
    const old = rig.jar.header()!;
    rig.upstream.faults.delayMs['refreshToken'] = 150;
    const renewing = rig.post('refresh', { accessToken: rig.accessToken }, { cookie: old });
    await until(() => rig.upstream.stats.refreshCalls === 1);
    const logout = await rig.post('logout', {}, { cookie: old });
    const renewal = await renewing;

    expect(logout.status).toBe(200);
    expect(renewal.status).toBe(200);
    const newest = rig.upstream.stats.refreshTokensIssued.at(-1)!;
    expect(rig.upstream.stats.refreshTokensIssued).toHaveLength(2);
    expect((await openCookie(renewal.setCookie[0]!))?.r).toBe(newest);
    // The logout was sent with the new pair's access token, and the new refresh token is dead upstream.
    expect(rig.upstream.stats.authorizationHeaders.at(-1)).toBe(`Bearer ${renewal.body.accessToken}`);
    rig.upstream.faults.delayMs['refreshToken'] = 0;
    expect(await refreshUpstream(rig.upstream, newest)).toBe('INVALID_REFRESH_TOKEN');
    // And the handler tells a request carrying the renewed cookie that the session ended.
    const late = await rig.post(
      'refresh',
      { accessToken: renewal.body.accessToken },
      { cookie: `${COOKIE}=${parseSetCookie(renewal.setCookie[0]!).value}` },
    );
    expect(late.status).toBe(401);
    expect(late.body.error.code).toBe('SESSION_ENDED');
  });
});

describe('a sign-in over a session of this browser', () => {
  // Found with the soak's journal (issue 30): a refresh that left with the old cookie came back after the sign-in
  // with 401 SESSION_ENDED and a Set-Cookie that cleared the cookie, which was the new session's by then.
  it("refuses a request that left with the old cookie without clearing the cookie, which is the new session's", async () => {
    const rig = await signedIn();
    const old = rig.jar.header()!;
    const again = await rig.post('login', { email: 'owner@demo.test', password: 'owner-pass' });
    expect(again.status).toBe(200);
    const current = rig.jar.header()!;
    expect(current).not.toBe(old);

    const late = await rig.post('refresh', { accessToken: rig.accessToken }, { cookie: old });
    expect(late.status).toBe(401);
    expect(late.body.error.code).toBe('SESSION_ENDED');
    expect(late.setCookie).toEqual([]);
    // A logout still clears: the browser's cookie is the one it ends.
    expectClearingCookie(await rig.post('logout', {}));
  });
});

describe('secrecy', () => {
  const logged: unknown[][] = [];
  afterEach(() => {
    vi.restoreAllMocks();
    logged.length = 0;
  });

  it('never lets a refresh token out in the clear: bodies, headers, cookies, logs and onError', async () => {
    for (const level of ['log', 'info', 'warn', 'error', 'debug'] as const) {
      vi.spyOn(console, level).mockImplementation((...args) => void logged.push(args));
    }
    const errors: Error[] = [];
    const rig = await signedIn({ handler: { onError: (error) => void errors.push(error), timeout: 300 } });

    await rig.post('refresh', {});
    await rig.post('refresh', { accessToken: rig.accessToken });
    const cookie = rig.jar.header()!;
    const { accessToken } = (await rig.post('refresh', {})).body;
    await Promise.all(Array.from({ length: 10 }, () => rig.post('refresh', { accessToken }, { cookie })));
    rig.upstream.faults.failNext.push({ field: 'refreshToken', status: 500, body: '{"errors":[{"message":"boom"}]}' });
    await rig.post('refresh', { accessToken: rig.accessToken }, { cookie });
    await rig.post('refresh', { accessToken: 'x' }, { cookie: `${COOKIE}=${tamper(cookie.slice(COOKIE.length + 1))}` });
    await rig.post('login', { email: 'owner@demo.test', password: 'owner-pass' });
    await until(() => rig.upstream.stats.logoutCalls === 1);
    rig.upstream.faults.failNext.push({ field: 'logout', status: 502, body: 'bad gateway' });
    const failedLogout = await rig.post('logout', {});
    expect(failedLogout.status).toBe(503);
    await rig.post('login', ADMIN);
    rig.upstream.revokeAllSessions();
    await rig.post('refresh', { accessToken: 'anything' });
    await rig.post('login', ADMIN);
    await rig.post('logout', {});

    const issued = rig.upstream.stats.refreshTokensIssued;
    expect(issued.length).toBeGreaterThanOrEqual(5);
    expect(rig.answers.length).toBeGreaterThanOrEqual(20);
    expect(errors.length).toBeGreaterThan(0);
    const seen = [
      ...rig.answers.map(
        (answer) => `${answer.text}\n${[...answer.headers].join('\n')}\n${answer.setCookie.join('\n')}`,
      ),
      ...logged.map((args) =>
        args.map((arg) => (arg instanceof Error ? `${arg.stack} ${String(arg.cause)}` : JSON.stringify(arg))).join(' '),
      ),
      ...errors.map((error) => `${error.message} ${error.stack} ${JSON.stringify(error)} ${String(error.cause)}`),
    ].join('\n');
    for (const token of issued) expect(seen).not.toContain(token);
  });
});

describe('toNodeHandler', () => {
  it('passes paths outside basePath to next, Express-style', async () => {
    const handler = createTokenHandler({
      uri: 'http://127.0.0.1:9/graphql',
      secret: 'a-test-secret-of-at-least-32-bytes-long',
    });
    const node = toNodeHandler(handler);
    const server = createServer((req, res) => void node(req, res, () => res.writeHead(200).end('next')));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise((resolve) => server.close(resolve)));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

    expect(await (await fetch(`${base}/elsewhere`)).text()).toBe('next');
    expect(await (await fetch(`${base}/authx/refresh`)).text()).toBe('next');
    expect((await fetch(`${base}/auth/refresh`)).status).toBe(405);
  });

  it('answers 404 to other paths without next', async () => {
    const rig = await startTokenHandler(cleanups);
    const answer = await fetch(`${rig.origin}/elsewhere`, {
      method: 'POST',
      headers: { origin: rig.origin, 'x-token-handler': '1' },
    });
    expect(answer.status).toBe(404);
    expect(((await answer.json()) as { error: { code: string } }).error.code).toBe('NOT_FOUND');
  });
});
