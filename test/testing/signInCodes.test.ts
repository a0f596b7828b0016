import { describe, expect, it } from 'vitest';
import { createTestClock, type TestAuthServer } from '../../src/testing';
import {
  codes,
  gql,
  LOGIN,
  ME,
  MINUTE,
  REQUEST_CODE,
  SIGN_IN,
  SIGN_IN_WITH_CODE,
  useTestServers,
  VERIFY_SECOND_FACTOR,
} from './helpers';

const start = useTestServers();

/** Asks for a sign-in code for `email` and reads the one the server sent. */
async function requestCode(server: TestAuthServer, email = 'admin@demo.test') {
  const { body } = await gql(server, REQUEST_CODE, { email });
  return { answer: body.data?.['requestSignInCode'], code: server.codes(email).at(-1)?.code };
}

async function signInWithCode(server: TestAuthServer, code: string | undefined, email = 'admin@demo.test') {
  return (await gql(server, SIGN_IN_WITH_CODE, { email, code })).body;
}

/** Signs in the account with a second factor with its password: the challenge, and the code it was sent. */
async function challenge(server: TestAuthServer) {
  const { body } = await gql(server, SIGN_IN, { email: 'twofactor@demo.test', password: 'twofactor-pass' });
  return { signIn: body.data?.['signIn'], code: server.codes('twofactor@demo.test').at(-1)?.code };
}

async function verify(server: TestAuthServer, challenge: string, code: string | undefined) {
  return (await gql(server, VERIFY_SECOND_FACTOR, { challenge, code })).body;
}

/** A six-digit code other than `code`. */
const wrong = (code: string | undefined) => (code === '000000' ? '111111' : '000000');

describe('a one-time code by e-mail', () => {
  it('requestSignInCode answers the address and 600 seconds, and sends a code that signs in once', async () => {
    const server = start();
    const { answer, code } = await requestCode(server);
    expect(answer).toEqual({ email: 'admin@demo.test', expiresIn: 600 });
    expect(code).toMatch(/^\d{6}$/);

    const pair = (await signInWithCode(server, code)).data?.['signInWithCode'];
    expect(pair.user).toEqual({ id: 'u_admin', email: 'admin@demo.test', role: 'ADMIN' });
    expect((await gql(server, ME, undefined, pair.accessToken)).body.data?.['me'].email).toBe('admin@demo.test');

    const again = await signInWithCode(server, code);
    expect(again.errors).toEqual([
      expect.objectContaining({
        message: 'No sign-in code is pending for this e-mail: request one with requestSignInCode',
        extensions: { code: 'INVALID_CODE' },
      }),
    ]);
  });

  it('answers an unknown address the same, and sends it no code that could work', async () => {
    const server = start();
    const unknown = await requestCode(server, 'nobody@demo.test');
    expect(unknown).toEqual({ answer: { email: 'nobody@demo.test', expiresIn: 600 }, code: undefined });
    expect(server.codes()).toEqual([]);

    const refused = await signInWithCode(server, '123456', 'nobody@demo.test');
    // Word for word what a known address with no code pending is told: no account is given away.
    const known = await signInWithCode(server, '123456', 'owner@demo.test');
    expect(refused.errors).toEqual(known.errors);
    expect(codes(refused)).toEqual(['INVALID_CODE']);
    expect(server.users.map((user) => user.email)).not.toContain('nobody@demo.test');
  });

  it('works until 10 minutes of the server clock have passed, and not from then on', async () => {
    const clock = createTestClock();
    const server = start({ clock });
    const early = await requestCode(server);
    expect(server.codes().at(-1)?.expiresAt).toBe(clock.now() + 10 * MINUTE);
    await clock.advance(10 * MINUTE - 1);
    expect(codes(await signInWithCode(server, early.code))).toBeUndefined();

    const late = await requestCode(server);
    await clock.advance(10 * MINUTE);
    const expired = await signInWithCode(server, late.code);
    expect(expired.errors?.[0]).toMatchObject({
      message: 'Sign-in code expired: request a new one',
      extensions: { code: 'INVALID_CODE' },
    });
    // A new code works again.
    expect(codes(await signInWithCode(server, (await requestCode(server)).code))).toBeUndefined();
  });

  it('four wrong codes leave it working; the fifth spends it, and then the right one is refused', async () => {
    const server = start();
    const first = await requestCode(server);
    for (let i = 0; i < 4; i++)
      expect(codes(await signInWithCode(server, wrong(first.code)))).toEqual(['INVALID_CODE']);
    expect(codes(await signInWithCode(server, first.code))).toBeUndefined();

    const second = await requestCode(server);
    for (let i = 0; i < 4; i++) await signInWithCode(server, wrong(second.code));
    const fifth = await signInWithCode(server, wrong(second.code));
    expect(fifth.errors?.[0]?.message).toBe('Wrong sign-in code, 5 times: the code is spent; request a new one');
    expect(codes(await signInWithCode(server, second.code))).toEqual(['INVALID_CODE']);
  });

  it('a new code replaces the one sent before it', async () => {
    const server = start();
    const first = await requestCode(server);
    let second = await requestCode(server);
    while (second.code === first.code) second = await requestCode(server);
    expect(codes(await signInWithCode(server, first.code))).toEqual(['INVALID_CODE']);
    expect(codes(await signInWithCode(server, second.code))).toBeUndefined();
  });

  it('signs in an account with a second factor too: the code by e-mail is a factor of its own', async () => {
    const server = start();
    const { code } = await requestCode(server, 'twofactor@demo.test');
    const pair = (await signInWithCode(server, code, 'twofactor@demo.test')).data?.['signInWithCode'];
    expect(pair.user).toEqual({ id: 'u_twofactor', email: 'twofactor@demo.test', role: 'ADMIN' });
  });
});

describe('a second factor', () => {
  it('loginWithEmailPassword refuses the account with SECOND_FACTOR_REQUIRED, naming signIn and verifySecondFactor', async () => {
    const server = start();
    const { body } = await gql(server, LOGIN, { email: 'twofactor@demo.test', password: 'twofactor-pass' });
    expect(body.errors).toEqual([
      expect.objectContaining({
        message:
          'This account has a second factor: sign in with signIn, then verifySecondFactor with the code sent by e-mail',
        extensions: { code: 'SECOND_FACTOR_REQUIRED' },
      }),
    ]);
    // A wrong password says nothing of the second factor.
    const wrongPassword = await gql(server, LOGIN, { email: 'twofactor@demo.test', password: 'nope' });
    expect(codes(wrongPassword.body)).toEqual(['INVALID_CREDENTIALS']);
    expect(server.codes()).toEqual([]);
    expect(server.stats.loginCalls).toBe(2);
  });

  it('signIn answers a pair to an account without one, and a challenge with a code sent to one with it', async () => {
    const server = start();
    const plain = await gql(server, SIGN_IN, { email: 'admin@demo.test', password: 'admin-pass' });
    expect(plain.body.data?.['signIn']).toMatchObject({ __typename: 'AuthPayload', user: { id: 'u_admin' } });
    expect(server.codes()).toEqual([]);

    const { signIn, code } = await challenge(server);
    expect(signIn).toEqual({ __typename: 'SecondFactorRequired', challenge: expect.any(String) });
    expect(server.codes()).toEqual([
      expect.objectContaining({ kind: 'second-factor', challenge: signIn.challenge, code }),
    ]);
    expect(codes((await gql(server, SIGN_IN, { email: 'twofactor@demo.test', password: 'no' })).body)).toEqual([
      'INVALID_CREDENTIALS',
    ]);
  });

  it('verifySecondFactor takes the challenge and its code once, for a pair of the account', async () => {
    const server = start();
    const { signIn, code } = await challenge(server);
    const pair = (await verify(server, signIn.challenge, code)).data?.['verifySecondFactor'];
    expect(pair.user).toEqual({ id: 'u_twofactor', email: 'twofactor@demo.test', role: 'ADMIN' });
    expect((await gql(server, ME, undefined, pair.accessToken)).body.data?.['me'].id).toBe('u_twofactor');

    const again = await verify(server, signIn.challenge, code);
    expect(again.errors?.[0]).toMatchObject({
      message: 'Unknown or used challenge: sign in again',
      extensions: { code: 'INVALID_CHALLENGE' },
    });
  });

  it('a wrong code is INVALID_CODE, the fifth spends the challenge, and an unknown challenge is INVALID_CHALLENGE', async () => {
    const server = start();
    const { signIn, code } = await challenge(server);
    expect(codes(await verify(server, 'not-a-challenge', code))).toEqual(['INVALID_CHALLENGE']);
    for (let i = 0; i < 4; i++)
      expect(codes(await verify(server, signIn.challenge, wrong(code)))).toEqual(['INVALID_CODE']);
    const fifth = await verify(server, signIn.challenge, wrong(code));
    expect(fifth.errors?.[0]?.message).toBe('Wrong second-factor code, 5 times: the challenge is spent; sign in again');
    expect(codes(await verify(server, signIn.challenge, code))).toEqual(['INVALID_CHALLENGE']);
  });

  it('a challenge works until 10 minutes of the server clock have passed, and not from then on', async () => {
    const clock = createTestClock();
    const server = start({ clock });
    const early = await challenge(server);
    await clock.advance(10 * MINUTE - 1);
    expect(codes(await verify(server, early.signIn.challenge, early.code))).toBeUndefined();

    const late = await challenge(server);
    await clock.advance(10 * MINUTE);
    const expired = await verify(server, late.signIn.challenge, late.code);
    expect(expired.errors?.[0]).toMatchObject({
      message: 'Challenge expired: sign in again',
      extensions: { code: 'INVALID_CHALLENGE' },
    });
  });
});
