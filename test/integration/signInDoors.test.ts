import { describe, expect, it } from 'vitest';
import { ping, startSpecSession, useCleanups } from '../helpers/overHttp';
import { DOORS } from '../helpers/signInDoors';

// Every door into a session, over HTTP against the spec test server's doors, with the contract's 15-minute access
// tokens on one test clock: sign-up, a one-time code, a second factor, a social ID token, and a pair handed over.

const cleanups = useCleanups();
const MINUTE = 60_000;

const start = () => startSpecSession(cleanups, { signIns: DOORS });

describe('a session begun through a door', () => {
  it('signs up, and the pair refreshes once for a burst of 20 operations on an expired token', async () => {
    const { server, auth, client } = await start();
    const { user } = await auth.signIn('register', { email: 'new@demo.test', password: 'correct horse' });
    expect(user).toMatchObject({ email: 'new@demo.test', role: 'MEMBER' });
    expect(auth.getState()).toMatchObject({ status: 'authenticated', user: { email: 'new@demo.test' } });
    const signedUp = await auth.getAccessToken();

    server.expireAllAccessTokens();
    const burst = await Promise.all(Array.from({ length: 20 }, (_, n) => ping(client, n)));
    expect(burst.map((result) => result.data)).toEqual(Array.from({ length: 20 }, (_, n) => ({ ping: n })));
    expect(server.stats.refreshCalls).toBe(1);
    expect(server.stats.reuseDetections).toBe(0);
    expect(await auth.getAccessToken()).not.toBe(signedUp);
    // One login-shaped call began it; no login with the password followed.
    expect(server.stats.registerCalls).toBe(1);
    expect(server.stats.loginCalls).toBe(0);
  });

  it('sends a code, signs in with it, and renews proactively on the 15-minute schedule', async () => {
    const { server, auth, client, clock } = await start();
    const step = await auth.signIn('requestCode', { email: 'admin@demo.test' });
    expect(step).toEqual({ next: { email: 'admin@demo.test', expiresIn: 600 } });
    expect(auth.getState().status).toBe('unauthenticated');
    const code = server.codes('admin@demo.test').at(-1)!.code;

    await expect(auth.signIn('withCode', { email: 'admin@demo.test', code: '000000' })).rejects.toMatchObject({
      name: 'AuthRejectedError',
      code: 'INVALID_CODE',
    });
    expect(auth.getState()).toMatchObject({ status: 'unauthenticated', error: { code: 'INVALID_CODE' } });
    const { user } = await auth.signIn('withCode', { email: 'admin@demo.test', code });
    expect(user).toMatchObject({ id: 'u_admin', role: 'ADMIN' });
    expect(auth.getState().error).toBeUndefined();

    await clock.advance(12.5 * MINUTE);
    expect(server.stats.refreshSuccesses).toBe(1);
    await expect(ping(client, 7)).resolves.toMatchObject({ data: { ping: 7 } });
    expect(server.stats.tokenExpired).toBe(0);
  });

  it('meets a second factor: the challenge is the next step, the code then begins the session', async () => {
    const { server, auth, client } = await start();
    const step = await auth.signIn('signIn', { email: 'twofactor@demo.test', password: 'twofactor-pass' });
    expect(step.next).toMatchObject({ __typename: 'SecondFactorRequired', challenge: expect.any(String) });
    expect(auth.getState().status).toBe('unauthenticated');
    const challenge = (step.next as { challenge: string }).challenge;
    const { code } = server.codes('twofactor@demo.test').at(-1)!;

    const { user } = await auth.signIn('verify', { challenge, code });
    expect(user).toMatchObject({ id: 'u_twofactor', email: 'twofactor@demo.test' });
    await expect(ping(client, 1)).resolves.toMatchObject({ data: { ping: 1 } });

    // A user without a second factor gets the pair from the same door at once.
    const direct = await auth.signIn('signIn', { email: 'owner@demo.test', password: 'owner-pass' });
    expect(direct.user).toMatchObject({ id: 'u_owner' });
  });

  it('exchanges a social ID token for a pair, and refuses a forged one in the server’s words', async () => {
    const { server, auth } = await start();
    const idToken = await server.signIdToken({ email: 'ada@gmail.test', name: 'Ada' });
    const { user } = await auth.signIn('withIdToken', { idToken });
    expect(user).toMatchObject({ email: 'ada@gmail.test', role: 'MEMBER' });

    const forged = `${idToken.slice(0, -4)}AAAA`;
    const refused = await auth.signIn('withIdToken', { idToken: forged }).catch((error: unknown) => error);
    expect(refused).toMatchObject({ name: 'AuthRejectedError', code: 'INVALID_ID_TOKEN' });
    // The session the ID token began is still there.
    expect(auth.getState()).toMatchObject({ status: 'authenticated', user: { email: 'ada@gmail.test' } });
  });

  it('replaces the session of another user and revokes its pair on the server', async () => {
    const { server, auth } = await start();
    await auth.login('owner@demo.test', 'owner-pass');
    const ownerPair = server.stats.refreshTokensIssued.at(-1)!;
    await auth.signIn('register', { email: 'second@demo.test', password: 'correct horse' });
    await expect.poll(() => server.stats.logoutCalls).toBe(1);
    // The owner's refresh token is dead: the server refuses it.
    const answer = await fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        query: 'mutation($t:String!){refreshToken(token:$t){accessToken}}',
        variables: { t: ownerPair },
      }),
    }).then((response) => response.json() as Promise<{ errors?: Array<{ extensions: { code: string } }> }>);
    expect(answer.errors?.[0]?.extensions.code).toBe('INVALID_REFRESH_TOKEN');
  });
});

describe('a pair handed over', () => {
  it('adopts a live pair with no request, and the session works at once', async () => {
    const { server, auth, client } = await start();
    const pair = await server.issueTokens('cashier@demo.test');
    const before = server.stats.requests;
    const { user } = await auth.adopt(pair);
    expect(server.stats.requests - before).toBe(0);
    expect(user).toMatchObject({ id: 'u_cashier', role: 'Cashier' });
    await expect(ping(client, 3)).resolves.toMatchObject({ data: { ping: 3 } });
    expect(server.stats.refreshCalls).toBe(0);
  });

  it('spends a dead pair’s refresh token once, then holds the session', async () => {
    const { server, auth, client, clock } = await start();
    const pair = await server.issueTokens('cashier@demo.test');
    await clock.advance(16 * MINUTE);
    await auth.adopt(pair);
    expect(server.stats.refreshCalls).toBe(1);
    expect(server.stats.refreshTokensSubmitted).toEqual([pair.refreshToken]);
    await Promise.all(Array.from({ length: 5 }, (_, n) => ping(client, n)));
    expect(server.stats.refreshCalls).toBe(1);
    expect(server.stats.tokenExpired).toBe(0);
  });
});
