import { decodeJwt, decodeProtectedHeader, jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import { login, useListeningServers } from './httpHelpers';

const start = useListeningServers();

describe('the tokens a server signs', () => {
  it('signs an HS256 access token with the documented claims and lifetime', async () => {
    const server = await start({ secret: 'test-secret', accessTokenTtl: 120 });
    const { accessToken } = await login(server, 'admin@demo.test', 'admin-pass');

    expect(decodeProtectedHeader(accessToken).alg).toBe('HS256');
    const { payload } = await jwtVerify(accessToken, new TextEncoder().encode('test-secret'));
    expect(payload).toEqual({
      sub: 'u_admin',
      email: 'admin@demo.test',
      role: 'ADMIN',
      sid: expect.any(String),
      jti: expect.any(String),
      n: expect.any(Number),
      typ: 'access',
      iat: expect.any(Number),
      exp: payload.iat! + 120,
    });
  });

  it('signs a refresh token with sub, sid, jti, typ refresh and the refresh lifetime', async () => {
    const server = await start({ refreshTokenTtl: 3600 });
    const { accessToken, refreshToken } = await login(server);
    const payload = decodeJwt(refreshToken);

    expect(payload).toEqual({
      sub: 'u_owner',
      sid: decodeJwt(accessToken)['sid'],
      jti: expect.any(String),
      typ: 'refresh',
      iat: expect.any(Number),
      exp: payload.iat! + 3600,
    });
  });
});
