import { describe, expect, it, vi } from 'vitest';
import type { LoginThrottle } from '../../src/server/LoginThrottle';
import { useCleanups } from '../helpers/overHttp';
import { NEWCOMER } from '../helpers/signInDoors';
import {
  expectNoRefreshTokenIn,
  register,
  signIn,
  startDoorsHandler,
  startTokenHandler,
  upstreamCounts,
} from '../helpers/tokenHandler';

// {basePath}/sign-in runs only the handler's own doors, by name, behind the checks every route passes and the login
// throttle: against the package's test server and its doors, with the contract's 15-minute tokens. What reached the
// upstream is read from its own counters, which count every request.

const cleanups = useCleanups();
const ADMIN = { email: 'admin@demo.test', password: 'admin-pass' };
const CASHIER = 'cashier@demo.test';

describe('what a page may send', () => {
  it('a name that is no door is 404 UNKNOWN_SIGN_IN naming the doors there are, and nothing goes upstream', async () => {
    const rig = await startDoorsHandler(cleanups);
    await register(rig);
    const before = upstreamCounts(rig.upstream);

    for (const name of ['resetPassword', '__proto__', 'constructor', '']) {
      const answer = await signIn(rig, name, { email: NEWCOMER.email });
      expect(answer.status, name).toBe(404);
      expect(answer.body.error).toEqual({
        code: 'UNKNOWN_SIGN_IN',
        message: `No sign-in door named "${name}" (the doors there are: register, requestCode, withCode, signIn, verify, withIdToken). Add it to the \`signIns\` of createTokenHandler (of its \`upstream\` transport, when it has one).`,
      });
      expect(answer.setCookie).toEqual([]);
    }
    expect(upstreamCounts(rig.upstream)).toEqual(before);

    const bare = await startTokenHandler(cleanups, { upstream: rig.upstream });
    const none = await bare.post('sign-in', { name: 'register', variables: {} });
    expect(none.status).toBe(404);
    expect(none.body.error.message).toContain('(there are none)');
    expect(upstreamCounts(rig.upstream)).toEqual(before);
    expectNoRefreshTokenIn(rig);
  });

  it('never runs a document the page sends: a body with one is refused, and a document as a name is only a name', async () => {
    const rig = await startDoorsHandler(cleanups);
    await register(rig);
    const before = upstreamCounts(rig.upstream);
    const logout = 'mutation { logout(refreshToken: "x") { success } }';
    const variables = { ...NEWCOMER };

    for (const body of [
      { name: 'register', variables, query: logout },
      { name: 'register', variables, document: logout },
      { query: logout, variables },
      { name: 'register', variables: [NEWCOMER.email] },
      { name: 'register', variables: 'email' },
      { name: 5, variables },
    ]) {
      const answer = await rig.post('sign-in', body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.error.code).toBe('BAD_REQUEST');
      expect(answer.body.error.message).toContain('no document a page sends');
    }
    expect((await signIn(rig, logout, variables)).body.error.code).toBe('UNKNOWN_SIGN_IN');
    expect(upstreamCounts(rig.upstream)).toEqual(before);
    expectNoRefreshTokenIn(rig);
  });

  it('passes the checks every route does: a forged sign-in is 403 FORBIDDEN and sends nothing', async () => {
    const rig = await startDoorsHandler(cleanups);
    await register(rig);
    const before = upstreamCounts(rig.upstream);
    const body = { name: 'register', variables: { ...NEWCOMER } };

    for (const options of [
      { headers: { 'x-token-handler': null } },
      { origin: 'https://evil.example' },
      { origin: null },
    ]) {
      const answer = await rig.post('sign-in', body, options);
      expect(answer.status).toBe(403);
      expect(answer.body.error.code).toBe('FORBIDDEN');
      expect(answer.setCookie).toEqual([]);
    }
    expect(upstreamCounts(rig.upstream)).toEqual(before);
    expectNoRefreshTokenIn(rig);
  });
});

describe('the login throttle at the doors', () => {
  it('refuses a door with 429 and Retry-After before anything goes upstream, and is told the door', async () => {
    const check = vi.fn<LoginThrottle['check']>((attempt) => (attempt.door ? { retryAfter: 42_300 } : undefined));
    const rig = await startDoorsHandler(cleanups, { loginThrottle: { check } });
    await rig.post('login', ADMIN);
    const before = upstreamCounts(rig.upstream);

    const answer = await register(rig);
    expect(answer.status).toBe(429);
    expect(answer.headers.get('retry-after')).toBe('43');
    expect(answer.body.error).toMatchObject({ code: 'TOO_MANY_ATTEMPTS', retryAfter: 43_000 });
    expect(answer.setCookie).toEqual([]);
    expect((await signIn(rig, 'verify', { challenge: 'c', code: '1' })).status).toBe(429);
    expect(upstreamCounts(rig.upstream)).toEqual(before);
    expect(check.mock.calls.map(([attempt]) => [attempt.email, attempt.door, attempt.address])).toEqual([
      [ADMIN.email, undefined, '127.0.0.1'],
      [NEWCOMER.email, 'register', '127.0.0.1'],
      // A door without an e-mail: the throttle keys it by door and address.
      ['', 'verify', '127.0.0.1'],
    ]);
    expectNoRefreshTokenIn(rig);
  });

  it("records a refused door as refused and a door's pair as accepted; a step that begins nothing is no verdict", async () => {
    const record = vi.fn<NonNullable<LoginThrottle['record']>>();
    const rig = await startDoorsHandler(cleanups, { loginThrottle: { check: () => undefined, record } });

    expect((await signIn(rig, 'requestCode', { email: CASHIER })).status).toBe(200);
    expect((await signIn(rig, 'withCode', { email: CASHIER, code: 'not-the-code' })).status).toBe(401);
    const { code } = rig.upstream.codes(CASHIER).at(-1)!;
    expect((await signIn(rig, 'withCode', { email: CASHIER, code })).status).toBe(200);
    expect(record.mock.calls.map(([attempt, outcome]) => [attempt.email, attempt.door, outcome])).toEqual([
      [CASHIER, 'withCode', 'refused'],
      [CASHIER, 'withCode', 'accepted'],
    ]);
    expectNoRefreshTokenIn(rig);
  });
});
