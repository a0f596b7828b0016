import { describe, expect, it } from 'vitest';
import { createAuthServer } from '../../../demo/server/createAuthServer';
import { createLab } from '../../../demo/server/createLab';
import { signIns } from '../../../demo/server/signIns';

const ORIGIN = 'http://demo.test';
const PAIR = 'accessToken refreshToken';

/** The lab in front of a fresh demo server, and the spec's calls through it as a client makes them. */
function setUp(now = Date.now) {
  const server = createAuthServer({ accessTokenTtl: 60 });
  const lab = createLab(server, now);
  const post = async (path: string, body: object, token?: string) => {
    const response = await lab(
      new Request(`${ORIGIN}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token && { authorization: `Bearer ${token}` }) },
        body: JSON.stringify(body),
      }),
    );
    return { status: response.status, body: (await response.json()) as any };
  };
  const graphql = (query: string, variables: object = {}, token?: string) =>
    post('/graphql', { query, variables }, token);
  const login = async (email = 'admin@demo.test', password = 'admin-pass') =>
    (
      await graphql(
        `mutation($email:String!,$password:String!){loginWithEmailPassword(email:$email,password:$password){${PAIR}}}`,
        { email, password },
      )
    ).body.data?.loginWithEmailPassword as { accessToken: string; refreshToken: string };
  const refresh = async (token: string) =>
    (await graphql(`mutation($token:String!){refreshToken(token:$token){${PAIR}}}`, { token })).body;
  const logout = (refreshToken: string) =>
    graphql('mutation($refreshToken:String!){logout(refreshToken:$refreshToken){success}}', { refreshToken });
  const ping = async (token: string) => (await graphql('{ ping(n: 1) }', {}, token)).body;
  const control = (name: string, body: object = {}, token?: string) => post(`/control/${name}`, body, token);
  // A sign-in door's mutation, as the demo's token handler sends it.
  const door = (name: keyof typeof signIns, variables: object) => graphql(signIns[name], variables);
  return { server, lab, login, refresh, logout, ping, control, door };
}

const code = (body: any) => body.errors?.[0]?.extensions?.code;

describe('the demo lab in front of the demo server', () => {
  it('expire mine answers TOKEN_EXPIRED for that session only, until it refreshes', async () => {
    const { login, ping, refresh, control, lab } = setUp();
    const mine = await login();
    const theirs = await login('owner@demo.test', 'owner-pass');
    expect((await control('expire-mine', {}, mine.accessToken)).status).toBe(200);
    expect(code(await ping(mine.accessToken))).toBe('TOKEN_EXPIRED');
    expect((await ping(theirs.accessToken)).data).toEqual({ ping: 1 });
    const renewed = (await refresh(mine.refreshToken)).data.refreshToken;
    expect((await ping(renewed.accessToken)).data).toEqual({ ping: 1 });
    const session = lab.report().sessions.find((s) => s.email === 'admin@demo.test')!;
    expect(session).toMatchObject({ tokenExpired: 1, refreshes: 1, refreshSuccesses: 1, status: 'active' });
  });

  it('revoke mine ends that session only; a logout of it afterwards is refused, as the server refuses it', async () => {
    const { login, ping, refresh, logout, control, lab } = setUp();
    const mine = await login();
    const theirs = await login('owner@demo.test', 'owner-pass');
    await control('revoke-mine', {}, mine.accessToken);
    expect(code(await ping(mine.accessToken))).toBe('UNAUTHENTICATED');
    expect(code(await refresh(mine.refreshToken))).toBe('INVALID_REFRESH_TOKEN');
    expect((await ping(theirs.accessToken)).data).toEqual({ ping: 1 });
    // The token handler takes that refusal for the end it was asked for (test/server/tokenHandler.test.ts).
    expect(code((await logout(mine.refreshToken)).body)).toBe('INVALID_REFRESH_TOKEN');
    expect(lab.report().sessions.map((s) => s.status)).toEqual(['revoked', 'active']);
  });

  it('a spent refresh token presented again is detected as reuse, and revokes the session', async () => {
    const { login, refresh, control, lab } = setUp();
    const first = await login();
    expect((await control('present-spent-refresh-token', {}, first.accessToken)).body.error).toMatch(
      /spent no refresh token yet/,
    );
    const second = (await refresh(first.refreshToken)).data.refreshToken;
    const answer = await control('present-spent-refresh-token', {}, second.accessToken);
    expect(answer.body.answer).toMatch(/already used/);
    expect(code(await refresh(second.refreshToken))).toBe('INVALID_REFRESH_TOKEN');
    expect(lab.report().sessions[0]).toMatchObject({ status: 'reuse', reuseDetections: 1 });
    expect(lab.report().totals.reuseDetections).toBe(1);
  });

  it('down answers every GraphQL request 503 for N s, and counts them; the controls still answer', async () => {
    let now = 1_000_000;
    const { login, ping, control, lab } = setUp(() => now);
    const { accessToken } = await login();
    await control('down', { seconds: 2 });
    const answer = await lab(
      new Request(`${ORIGIN}/graphql`, {
        method: 'POST',
        headers: { authorization: `Bearer ${accessToken}` },
        body: '{"query":"{ ping }"}',
      }),
    );
    expect(answer.status).toBe(503);
    expect(lab.report().downUntil).toBe(1_002_000);
    now += 2_000;
    expect((await ping(accessToken)).data).toEqual({ ping: 1 });
    expect(lab.report().totals.unavailable).toBe(1);
  });

  it("counts failed logins apart from logins, and slow refresh sets the server's delay", async () => {
    const { login, control, lab, server } = setUp();
    await login();
    await login('admin@demo.test', 'wrong');
    expect(lab.report().totals).toMatchObject({ logins: 1, failedLogins: 1 });
    await control('slow-refresh', { ms: 1500 });
    expect(server.faults.delayMs['refreshToken']).toBe(1500);
    expect(lab.report().refreshDelay).toBe(1500);
  });

  it('counts a session begun through a sign-in door as a login, and acts on it as on any other', async () => {
    const { door, ping, control, lab, server } = setUp();
    const signedUp = (await door('register', { email: 'new@demo.test', password: 'new-pass-1' })).body.data.register;
    expect(lab.report().totals).toMatchObject({ logins: 1, failedLogins: 0 });
    expect(lab.report().sessions).toMatchObject([{ email: 'new@demo.test', status: 'active' }]);
    expect((await control('expire-mine', {}, signedUp.accessToken)).status).toBe(200);
    expect(code(await ping(signedUp.accessToken))).toBe('TOKEN_EXPIRED');

    // A second factor: the challenge is neither a login nor a failure; a wrong code is a failed login.
    const { challenge } = (await door('signIn', { email: 'twofactor@demo.test', password: 'twofactor-pass' })).body.data
      .signIn;
    expect(lab.report().totals).toMatchObject({ logins: 1, failedLogins: 0 });
    expect(code((await door('verify', { challenge, code: 'nope' })).body)).toBe('INVALID_CODE');
    expect(lab.report().totals).toMatchObject({ logins: 1, failedLogins: 1 });
    const sent = server.codes('twofactor@demo.test').at(-1)!;
    const verified = (await door('verify', { challenge, code: sent.code })).body.data.verifySecondFactor;
    expect(lab.report().totals).toMatchObject({ logins: 2, failedLogins: 1 });
    expect((await control('revoke-mine', {}, verified.accessToken)).status).toBe(200);
    expect(lab.report().sessions.find((s) => s.email === 'twofactor@demo.test')).toMatchObject({ status: 'revoked' });
  });
});
