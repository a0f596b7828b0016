import { decodeJwt, decodeProtectedHeader, SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { createTestClock, TEST_USERS, type TestAuthServer } from '../../src/testing';
import { codes, gql, LOGIN, MINUTE, SIGN_IN_WITH_ID_TOKEN, useTestServers } from './helpers';

const start = useTestServers();
const ISSUER = 'https://id.test-auth-server.invalid';
const AUDIENCE = 'apollo-link-token-pair-test';

async function signInWithIdToken(server: TestAuthServer, idToken: string) {
  return (await gql(server, SIGN_IN_WITH_ID_TOKEN, { idToken })).body;
}

describe('the test identity provider', () => {
  it('signIdToken signs an HS256 JWT with its issuer, audience, sub, email, name and an hour to live', async () => {
    const clock = createTestClock({ now: Date.UTC(2030, 0, 1) });
    const server = start({ clock });
    const idToken = await server.signIdToken({ email: 'ada@example.test', name: 'Ada', sub: 'google-42' });
    expect(decodeProtectedHeader(idToken)).toEqual({ alg: 'HS256', typ: 'JWT' });
    const iat = Date.UTC(2030, 0, 1) / 1000;
    expect(decodeJwt(idToken)).toEqual({
      iss: ISSUER,
      aud: AUDIENCE,
      sub: 'google-42',
      email: 'ada@example.test',
      name: 'Ada',
      iat,
      exp: iat + 3600,
    });
    expect(decodeJwt(await server.signIdToken({ email: 'bo@example.test', expiresIn: 60 }))).toMatchObject({
      sub: 'bo@example.test',
      exp: iat + 60,
    });
  });
});

describe('signInWithIdToken', () => {
  it('signs in the account of the token e-mail', async () => {
    const server = start();
    const body = await signInWithIdToken(server, await server.signIdToken({ email: 'owner@demo.test' }));
    expect(body.data?.['signInWithIdToken'].user).toEqual({ id: 'u_owner', email: 'owner@demo.test', role: 'OWNER' });
    expect(server.users).toHaveLength(TEST_USERS.length);
  });

  it('signs up an unknown e-mail once, as a MEMBER with no password, and signs the same account in after', async () => {
    const server = start();
    const first = await signInWithIdToken(server, await server.signIdToken({ email: 'ada@example.test' }));
    const user = { id: 'u_5', email: 'ada@example.test', role: 'MEMBER' };
    expect(first.data?.['signInWithIdToken'].user).toEqual(user);
    const second = await signInWithIdToken(server, await server.signIdToken({ email: 'ada@example.test' }));
    expect(second.data?.['signInWithIdToken'].user).toEqual(user);
    expect(server.users.filter((each) => each.email === 'ada@example.test')).toHaveLength(1);
    // No password signs in to it, the empty one included.
    expect(codes((await gql(server, LOGIN, { email: 'ada@example.test', password: '' })).body)).toEqual([
      'INVALID_CREDENTIALS',
    ]);
  });

  it('refuses with INVALID_ID_TOKEN a token another key signed, another issuer or audience, or no JWT', async () => {
    const server = start();
    const other = start();
    const claims = { email: 'admin@demo.test' };
    const forged = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setSubject('admin@demo.test')
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('a secret the provider does not have'));
    const genuine = await server.signIdToken(claims);
    const [header, , signature] = genuine.split('.');
    const owner = Buffer.from(JSON.stringify({ ...decodeJwt(genuine), email: 'owner@demo.test' })).toString(
      'base64url',
    );
    const tampered = `${header}.${owner}.${signature}`;

    const refusals = {
      forged,
      "another server's": await other.signIdToken(claims),
      tampered,
      'another issuer': await server.signIdToken({ ...claims, issuer: 'https://accounts.example.test' }),
      'another audience': await server.signIdToken({ ...claims, audience: 'another-app' }),
      'not a JWT': 'not-a-jwt',
    };
    const messages: Record<string, string | undefined> = {};
    for (const [name, idToken] of Object.entries(refusals)) {
      const body = await signInWithIdToken(server, idToken);
      expect([name, codes(body)]).toEqual([name, ['INVALID_ID_TOKEN']]);
      messages[name] = body.errors?.[0]?.message;
    }
    expect(messages).toEqual({
      forged: 'ID token not signed by the test identity provider',
      "another server's": 'ID token not signed by the test identity provider',
      tampered: 'ID token not signed by the test identity provider',
      'another issuer': `ID token issuer is not ${ISSUER}`,
      'another audience': `ID token audience is not ${AUDIENCE}`,
      'not a JWT': 'ID token not signed by the test identity provider',
    });
    expect(server.stats.signInWithIdTokenCalls).toBe(6);
    expect(server.users).toHaveLength(TEST_USERS.length);
  });

  it('refuses a token from its exp on, by the server clock', async () => {
    const clock = createTestClock();
    const server = start({ clock });
    const idToken = await server.signIdToken({ email: 'admin@demo.test', expiresIn: 5 * 60 });
    await clock.advance(5 * MINUTE - 1_000);
    expect(codes(await signInWithIdToken(server, idToken))).toBeUndefined();
    await clock.advance(1_000);
    const expired = await signInWithIdToken(server, idToken);
    expect(expired.errors?.[0]).toMatchObject({
      message: 'ID token expired',
      extensions: { code: 'INVALID_ID_TOKEN' },
    });
    expect(
      codes(await signInWithIdToken(server, await server.signIdToken({ email: 'admin@demo.test', expiresIn: 0 }))),
    ).toEqual(['INVALID_ID_TOKEN']);
  });
});
