import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { TEST_USERS, type TestAuthServer } from '../../src/testing';
import {
  codes,
  gql,
  LOGIN,
  LOGOUT,
  ME,
  REFRESH,
  REGISTER,
  REQUEST_CODE,
  SIGN_IN,
  SIGN_IN_WITH_CODE,
  SIGN_IN_WITH_ID_TOKEN,
  useTestServers,
  VERIFY_SECOND_FACTOR,
} from './helpers';

const start = useTestServers();

interface Pair {
  accessToken: string;
  refreshToken: string;
  user: { id: string; email: string; role: string };
}

/** The one top-level field of a door's answer, failing on an error. */
async function field(target: TestAuthServer | string, query: string, variables: object): Promise<any> {
  const { body } = await gql(target, query, variables);
  expect(body.errors).toBeUndefined();
  return Object.values(body.data!)[0];
}

/** Each door, and how a client gets a pair through it (over HTTP at `url`), for the user it expects. */
const DOORS: Array<[string, Pair['user'], (url: string, server: TestAuthServer) => Promise<Pair>]> = [
  [
    'register',
    { id: 'u_5', email: 'new@demo.test', role: 'MEMBER' },
    (url) => field(url, REGISTER, { email: 'new@demo.test', password: 'long-enough' }),
  ],
  [
    'signInWithCode',
    { id: 'u_cashier', email: 'cashier@demo.test', role: 'Cashier' },
    async (url, server) => {
      await field(url, REQUEST_CODE, { email: 'cashier@demo.test' });
      const { code } = server.codes('cashier@demo.test').at(-1)!;
      return field(url, SIGN_IN_WITH_CODE, { email: 'cashier@demo.test', code });
    },
  ],
  [
    'signIn',
    { id: 'u_owner', email: 'owner@demo.test', role: 'OWNER' },
    (url) => field(url, SIGN_IN, { email: 'owner@demo.test', password: 'owner-pass' }),
  ],
  [
    'verifySecondFactor',
    { id: 'u_twofactor', email: 'twofactor@demo.test', role: 'ADMIN' },
    async (url, server) => {
      const { challenge } = await field(url, SIGN_IN, { email: 'twofactor@demo.test', password: 'twofactor-pass' });
      const { code } = server.codes('twofactor@demo.test').at(-1)!;
      return field(url, VERIFY_SECOND_FACTOR, { challenge, code });
    },
  ],
  [
    'signInWithIdToken',
    { id: 'u_admin', email: 'admin@demo.test', role: 'ADMIN' },
    async (url, server) => {
      const idToken = await server.signIdToken({ email: 'admin@demo.test' });
      return field(url, SIGN_IN_WITH_ID_TOKEN, { idToken });
    },
  ],
];

describe('the pair of every sign-in door, over HTTP', () => {
  it.each(DOORS)(
    '%s answers a pair whose access token carries sub, email and role, works for me, rotates and logs out',
    async (_door, user, signIn) => {
      const server = start();
      const url = await server.listen(0, '127.0.0.1');
      const pair = await signIn(url, server);

      expect(pair.user).toEqual(user);
      expect(decodeJwt(pair.accessToken)).toMatchObject({ sub: user.id, email: user.email, role: user.role });
      expect((await gql(url, ME, undefined, pair.accessToken)).body.data).toEqual({ me: user });

      const rotated = await field(url, REFRESH, { token: pair.refreshToken });
      expect(decodeJwt(rotated.accessToken)).toMatchObject({ sub: user.id, email: user.email, role: user.role });
      expect((await gql(url, ME, undefined, rotated.accessToken)).body.data).toEqual({ me: user });
      expect(await field(url, LOGOUT, { refreshToken: rotated.refreshToken })).toEqual({ success: true });
      expect(codes((await gql(url, ME, undefined, rotated.accessToken)).body)).toEqual(['UNAUTHENTICATED']);
      expect(codes((await gql(url, REFRESH, { token: pair.refreshToken })).body)).toEqual(['INVALID_REFRESH_TOKEN']);
    },
  );
});

describe('register', () => {
  it('opens an account with role MEMBER that then signs in with its password, through either door', async () => {
    const server = start();
    const registered = await field(server, REGISTER, { email: 'ada@example.test', password: 'eight-ch' });
    expect(registered.user).toEqual({ id: 'u_5', email: 'ada@example.test', role: 'MEMBER' });
    expect(server.users.map((user) => user.email)).toEqual([
      ...TEST_USERS.map((user) => user.email),
      'ada@example.test',
    ]);

    const login = await field(server, LOGIN, { email: 'ada@example.test', password: 'eight-ch' });
    expect(login.user).toEqual(registered.user);
    const signIn = await field(server, SIGN_IN, { email: 'ada@example.test', password: 'eight-ch' });
    expect(signIn).toMatchObject({ __typename: 'AuthPayload', user: registered.user });
    expect(server.stats).toMatchObject({ registerCalls: 1, loginCalls: 1, signInCalls: 1 });
  });

  it('refuses a taken e-mail with EMAIL_TAKEN, a short password or an address without @ with BAD_USER_INPUT', async () => {
    const server = start();
    const register = async (email: string, password: string) => (await gql(server, REGISTER, { email, password })).body;

    const taken = await register('admin@demo.test', 'another-password');
    expect(taken.errors).toEqual([
      expect.objectContaining({
        message: 'An account with admin@demo.test exists already',
        extensions: { code: 'EMAIL_TAKEN' },
      }),
    ]);
    expect(codes(await register('ada@example.test', 'seven-c'))).toEqual(['BAD_USER_INPUT']);
    expect(codes(await register('ada.example.test', 'long-enough'))).toEqual(['BAD_USER_INPUT']);
    expect(server.users).toHaveLength(TEST_USERS.length);
    // The old password of a taken address still signs in; the refused one does not.
    expect(codes((await gql(server, LOGIN, { email: 'admin@demo.test', password: 'another-password' })).body)).toEqual([
      'INVALID_CREDENTIALS',
    ]);
    expect(server.stats.registerCalls).toBe(3);
  });
});

describe('the codes the doors send', () => {
  it('server.codes lists them oldest first, by address when asked, and GET /control/codes answers the same', async () => {
    const heard: string[] = [];
    const server = start({ onCode: (code) => heard.push(`${code.kind} ${code.email} ${code.code}`) });
    const url = await server.listen(0, '127.0.0.1');
    await field(url, REQUEST_CODE, { email: 'admin@demo.test' });
    const { challenge } = await field(url, SIGN_IN, { email: 'twofactor@demo.test', password: 'twofactor-pass' });
    await field(url, REQUEST_CODE, { email: 'nobody@demo.test' });

    const all = server.codes();
    expect(all).toEqual([
      {
        email: 'admin@demo.test',
        kind: 'sign-in',
        code: expect.stringMatching(/^\d{6}$/),
        expiresAt: expect.any(Number),
      },
      {
        email: 'twofactor@demo.test',
        kind: 'second-factor',
        code: expect.stringMatching(/^\d{6}$/),
        challenge,
        expiresAt: expect.any(Number),
      },
    ]);
    expect(heard).toEqual(all.map((code) => `${code.kind} ${code.email} ${code.code}`));
    expect(server.codes('twofactor@demo.test')).toEqual([all[1]]);
    expect(server.codes('nobody@demo.test')).toEqual([]);

    const control = (query = '') => fetch(url.replace('/graphql', `/control/codes${query}`));
    expect(await (await control()).json()).toEqual({ codes: all });
    expect(await (await control('?email=admin@demo.test')).json()).toEqual({ codes: [all[0]] });
    expect((await control()).headers.get('access-control-allow-origin')).toBe('*');
  });

  it('POST /control/id-token answers an ID token that signInWithIdToken takes; a body without an e-mail is 400', async () => {
    const server = start();
    const url = await server.listen(0, '127.0.0.1');
    const idTokenFor = (body: string) => fetch(url.replace('/graphql', '/control/id-token'), { method: 'POST', body });

    const answer = await idTokenFor(JSON.stringify({ email: 'cashier@demo.test', name: 'Cass' }));
    const { idToken } = await answer.json();
    expect(decodeJwt(idToken)).toMatchObject({ email: 'cashier@demo.test', name: 'Cass' });
    expect((await field(url, SIGN_IN_WITH_ID_TOKEN, { idToken })).user.id).toBe('u_cashier');

    for (const body of ['{}', '{"email":""}', '{"email":"a@b.test","expiresIn":"soon"}', 'not json']) {
      const refused = await idTokenFor(body);
      expect([refused.status, (await refused.json()).errors[0].extensions.code]).toEqual([400, 'BAD_REQUEST']);
    }
    const get = await fetch(url.replace('/graphql', '/control/id-token'));
    expect([get.status, get.headers.get('allow')]).toEqual([405, 'POST, OPTIONS']);
  });
});

describe('counters, statuses and faults of the doors', () => {
  it('counts every call of each door, refused or not; GET /control/stats reports them and resetStats zeroes them', async () => {
    const server = start();
    await gql(server, REGISTER, { email: 'admin@demo.test', password: 'long-enough' });
    await gql(server, REQUEST_CODE, { email: 'admin@demo.test' });
    await gql(server, SIGN_IN_WITH_CODE, { email: 'admin@demo.test', code: 'nope' });
    await gql(server, SIGN_IN, { email: 'twofactor@demo.test', password: 'twofactor-pass' });
    await gql(server, SIGN_IN, { email: 'owner@demo.test', password: 'wrong' });
    await gql(server, VERIFY_SECOND_FACTOR, { challenge: 'nope', code: '000000' });
    await gql(server, SIGN_IN_WITH_ID_TOKEN, { idToken: 'nope' });
    const counted = {
      registerCalls: 1,
      requestSignInCodeCalls: 1,
      signInWithCodeCalls: 1,
      signInCalls: 2,
      verifySecondFactorCalls: 1,
      signInWithIdTokenCalls: 1,
      loginCalls: 0,
    };
    expect(server.stats).toMatchObject(counted);
    expect(await (await server.fetch('/control/stats')).json()).toMatchObject(counted);

    server.resetStats();
    expect(server.stats).toMatchObject({ registerCalls: 0, signInCalls: 0, signInWithIdTokenCalls: 0 });
  });

  it('with authErrorStatus, answers it to the doors refusals of sign-in, and 200 to refused input', async () => {
    const server = start({ authErrorStatus: 401 });
    const status = async (query: string, variables: object) => (await gql(server, query, variables)).status;
    expect(await status(LOGIN, { email: 'twofactor@demo.test', password: 'twofactor-pass' })).toBe(401);
    expect(await status(SIGN_IN_WITH_CODE, { email: 'admin@demo.test', code: '123456' })).toBe(401);
    expect(await status(VERIFY_SECOND_FACTOR, { challenge: 'nope', code: '123456' })).toBe(401);
    expect(await status(SIGN_IN_WITH_ID_TOKEN, { idToken: 'nope' })).toBe(401);
    expect(await status(SIGN_IN, { email: 'admin@demo.test', password: 'wrong' })).toBe(401);
    expect(await status(REGISTER, { email: 'admin@demo.test', password: 'long-enough' })).toBe(200);
    expect(await status(REGISTER, { email: 'ada@example.test', password: 'short' })).toBe(200);
  });

  it('delayMs delays a door by its name, and the server closing ends the wait', async () => {
    const server = start();
    server.faults.delayMs['register'] = 60_000;
    let settled = false;
    const delayed = gql(server, REGISTER, { email: 'ada@example.test', password: 'long-enough' }).finally(
      () => (settled = true),
    );
    // Another door answers meanwhile: only the named field waits.
    await field(server, SIGN_IN, { email: 'admin@demo.test', password: 'admin-pass' });
    expect(settled).toBe(false);
    await server.close();
    await expect(delayed).rejects.toThrow('fetch failed');
    expect(server.users).toHaveLength(TEST_USERS.length);
  });
});
