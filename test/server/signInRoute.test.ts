import { describe, expect, it } from 'vitest';
import type { SignInDocument } from '../../src';
import { createTokenHandler } from '../../src/server/createTokenHandler';
import { useCleanups } from '../helpers/overHttp';
import { DOORS, NEWCOMER } from '../helpers/signInDoors';
import {
  COOKIE,
  expectNoRefreshTokenIn,
  openCookie,
  parseSetCookie,
  refreshUpstream,
  register,
  SECRET,
  signIn,
  startDoorsHandler,
  upstreamCounts,
} from '../helpers/tokenHandler';

// {basePath}/sign-in runs the handler's own doors (its `signIns`) by name, against the package's test server and its
// doors with the contract's 15-minute tokens: what a door's answer begins, refusals and outages. What a page may
// send and the throttle are in signInGuards.test.ts.

const cleanups = useCleanups();
const ADMIN = { email: 'admin@demo.test', password: 'admin-pass' };
const TWO_FACTOR = { email: 'twofactor@demo.test', password: 'twofactor-pass' };
const CASHIER = 'cashier@demo.test';

describe("the doors' documents", () => {
  it('throws when the handler is created, naming a door whose document is not one mutation of one field', () => {
    const create = (document: SignInDocument) => () =>
      createTokenHandler({ uri: 'http://127.0.0.1:1/graphql', secret: SECRET, signIns: { ...DOORS, bad: document } });
    expect(create('mutation {')).toThrow(/^apollo-link-token-pair: signIns\.bad is not a GraphQL document/);
    expect(create('mutation { a { b } c { d } }')).toThrow(
      'apollo-link-token-pair: signIns.bad must select one top-level field, whose answer is the pair (or the next step); it selects a, c.',
    );
    expect(create(DOORS.register)).not.toThrow();
  });
});

describe('a door whose answer carries a pair', () => {
  it('begins the session as a login does: the access token and the user, a sealed HttpOnly Secure SameSite=Strict cookie', async () => {
    const rig = await startDoorsHandler(cleanups);
    const answer = await register(rig);

    expect(answer.status).toBe(200);
    const account = rig.upstream.users.find((user) => user.email === NEWCOMER.email)!;
    expect(answer.body).toEqual({
      accessToken: expect.any(String),
      user: { id: account.id, email: NEWCOMER.email, role: 'MEMBER' },
      age: 0,
    });
    expect(answer.setCookie).toHaveLength(1);
    const { name, value, attributes } = parseSetCookie(answer.setCookie[0]!);
    expect(name).toBe(COOKIE);
    expect(attributes).toMatchObject({ httponly: '', secure: '', samesite: 'Strict', path: '/' });
    expect(Math.abs(Number(attributes['max-age']) - 2_592_000)).toBeLessThanOrEqual(2);
    const [issued] = rig.upstream.stats.refreshTokensIssued;
    expect(await openCookie(value)).toMatchObject({ r: issued, a: answer.body.accessToken });
    // The door, and nothing else, went upstream.
    expect(upstreamCounts(rig.upstream)).toEqual({ requests: 1, registerCalls: 1 });
    expectNoRefreshTokenIn(rig);
  });

  it('its cookie restores the session through /refresh with no upstream call, and a refresh near its end rotates once', async () => {
    const clock = { offset: 0 };
    const rig = await startDoorsHandler(cleanups, { now: () => Date.now() + clock.offset });
    const { accessToken } = (await register(rig)).body;

    const restored = await rig.post('refresh', {});
    expect(restored.status).toBe(200);
    expect(restored.body).toMatchObject({ accessToken, user: { email: NEWCOMER.email, role: 'MEMBER' } });
    expect(upstreamCounts(rig.upstream)).toEqual({ requests: 1, registerCalls: 1 });

    // 13 minutes on, the 15-minute token is too near its end to hand out: one rotation upstream, then its answer.
    clock.offset = 13 * 60_000;
    const renewed = await rig.post('refresh', {});
    expect(renewed.status).toBe(200);
    expect(renewed.body.accessToken).not.toBe(accessToken);
    expect(renewed.body.user).toMatchObject({ email: NEWCOMER.email });
    expect((await rig.post('refresh', {})).body.accessToken).toBe(renewed.body.accessToken);
    expect(upstreamCounts(rig.upstream)).toEqual({
      requests: 2,
      registerCalls: 1,
      refreshCalls: 1,
      refreshSuccesses: 1,
    });
    expectNoRefreshTokenIn(rig);
  });

  it('replaces the session the browser had, which is revoked upstream', async () => {
    const rig = await startDoorsHandler(cleanups);
    expect((await rig.post('login', ADMIN)).status).toBe(200);
    const [previous] = rig.upstream.stats.refreshTokensIssued;

    expect((await register(rig)).status).toBe(200);
    expect(rig.upstream.stats.logoutCalls).toBe(1);
    expect(await refreshUpstream(rig.upstream, previous!)).toBe('INVALID_REFRESH_TOKEN');
    expect((await rig.post('refresh', {})).body.user).toMatchObject({ email: NEWCOMER.email });
    expectNoRefreshTokenIn(rig);
  });
});

describe('a door whose answer carries no pair', () => {
  it('answers { next } as the upstream sent it, with no cookie; the code then begins a session', async () => {
    const rig = await startDoorsHandler(cleanups);
    await rig.post('login', ADMIN);
    const cookie = rig.jar.get();

    const step = await signIn(rig, 'requestCode', { email: CASHIER });
    expect(step.status).toBe(200);
    expect(step.body).toEqual({ next: { email: CASHIER, expiresIn: 600 } });
    expect(step.setCookie).toEqual([]);
    expect(rig.jar.get()).toBe(cookie);
    expect((await rig.post('refresh', {})).body.user).toMatchObject({ id: 'u_admin' });
    expect(rig.upstream.stats.logoutCalls).toBe(0);

    const { code } = rig.upstream.codes(CASHIER).at(-1)!;
    const signedIn = await signIn(rig, 'withCode', { email: CASHIER, code });
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.user).toMatchObject({ id: 'u_cashier' });
    expect(rig.jar.get()).not.toBe(cookie);
    expect(rig.upstream.stats).toMatchObject({ requestSignInCodeCalls: 1, signInWithCodeCalls: 1, logoutCalls: 1 });
    expectNoRefreshTokenIn(rig);
  });

  it("reads a union's answer: a second factor's challenge is the next step, another member's pair a session", async () => {
    const rig = await startDoorsHandler(cleanups);
    const challenged = await signIn(rig, 'signIn', TWO_FACTOR);
    expect(challenged.status).toBe(200);
    expect(challenged.body).toEqual({ next: { __typename: 'SecondFactorRequired', challenge: expect.any(String) } });
    expect(challenged.setCookie).toEqual([]);

    const { challenge } = challenged.body.next;
    const { code } = rig.upstream.codes(TWO_FACTOR.email).at(-1)!;
    const verified = await signIn(rig, 'verify', { challenge, code });
    expect(verified.status).toBe(200);
    expect(verified.body.user).toMatchObject({ id: 'u_twofactor' });

    const direct = await signIn(rig, 'signIn', ADMIN);
    expect(direct.status).toBe(200);
    expect(direct.body).toEqual({
      accessToken: expect.any(String),
      user: expect.objectContaining({ id: 'u_admin' }),
      age: 0,
    });
    expect(direct.setCookie).toHaveLength(1);
    expect(rig.upstream.stats).toMatchObject({ signInCalls: 2, verifySecondFactorCalls: 1, loginCalls: 0 });
    expectNoRefreshTokenIn(rig);
  });

  it('never hands the page a step that holds a refresh token: a pair without its access token is 503', async () => {
    // A document that names a field refreshToken in a step's answer: a pair gone wrong, not a step.
    const halfPair =
      'mutation ($email: String!) { requestSignInCode(email: $email) { refreshToken: email expiresIn } }';
    const rig = await startDoorsHandler(cleanups, { signIns: { ...DOORS, halfPair } });
    await register(rig);

    const answer = await signIn(rig, 'halfPair', { email: CASHIER });
    expect(answer.status).toBe(503);
    expect(answer.body.error).toEqual({
      code: 'UPSTREAM_UNAVAILABLE',
      message: "The auth service could not be reached: the sign-in door halfPair's answer carried no pair",
    });
    expect(answer.text).not.toContain(CASHIER);
    expect(answer.setCookie).toEqual([]);
    expect(rig.upstream.stats.requestSignInCodeCalls).toBe(1);
    expectNoRefreshTokenIn(rig);
  });
});

describe('refusals and outages', () => {
  it("a refusal is 401 with the upstream's code and words, and the browser's session stays", async () => {
    const rig = await startDoorsHandler(cleanups);
    const { accessToken } = (await register(rig)).body;

    for (const [name, variables, error] of [
      [
        'register',
        { email: ADMIN.email, password: 'a long enough password' },
        ['EMAIL_TAKEN', 'An account with admin@demo.test exists already'],
      ],
      [
        'withCode',
        { email: CASHIER, code: '000000' },
        ['INVALID_CODE', 'No sign-in code is pending for this e-mail: request one with requestSignInCode'],
      ],
      ['signIn', { email: ADMIN.email, password: 'wrong' }, ['INVALID_CREDENTIALS', 'Invalid email or password']],
    ] as const) {
      const answer = await signIn(rig, name, variables);
      expect(answer.status, name).toBe(401);
      expect(answer.body).toEqual({ error: { code: error[0], message: error[1] } });
      expect(answer.setCookie).toEqual([]);
    }
    expect((await rig.post('refresh', {})).body.accessToken).toBe(accessToken);
    expect(rig.upstream.stats.logoutCalls).toBe(0);
    expectNoRefreshTokenIn(rig);
  });

  it('an upstream that cannot be reached is 503 UPSTREAM_UNAVAILABLE, and the cookie is kept', async () => {
    const rig = await startDoorsHandler(cleanups);
    const { accessToken } = (await register(rig)).body;
    const cookie = rig.jar.get();
    await rig.upstream.close();

    const answer = await signIn(rig, 'requestCode', { email: CASHIER });
    expect(answer.status).toBe(503);
    expect(answer.body.error.code).toBe('UPSTREAM_UNAVAILABLE');
    expect(answer.setCookie).toEqual([]);
    expect(rig.jar.get()).toBe(cookie);
    // The cookie's access token is fresh: answered with the upstream still down.
    expect((await rig.post('refresh', {})).body.accessToken).toBe(accessToken);
    expectNoRefreshTokenIn(rig);
  });
});
