import { decodeJwt } from 'jose';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createAuthServer, type AuthServer, type AuthServerOptions } from '../../../demo/server/createAuthServer.ts';
import { ME } from '../../testing/helpers.ts';
import { gql, login } from '../../testing/httpHelpers.ts';

// What the demo adds over createTestAuthServer, whose behaviour test/testing/ pins part by part.

const servers: AuthServer[] = [];

afterEach(async () => {
  vi.unstubAllEnvs();
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function start(options?: AuthServerOptions): Promise<AuthServer> {
  const server = createAuthServer(options);
  servers.push(server);
  await server.listen();
  return server;
}

describe('createAuthServer', () => {
  it('takes lifetimes from ACCESS_TOKEN_TTL and REFRESH_TOKEN_TTL, else 900 s and 30 days', async () => {
    const lifetimes = async () => {
      const { accessToken, refreshToken } = await createAuthServer().issueTokens('owner@demo.test');
      return [accessToken, refreshToken].map((token) => decodeJwt(token)).map(({ exp, iat }) => exp! - iat!);
    };

    vi.stubEnv('ACCESS_TOKEN_TTL', '');
    vi.stubEnv('REFRESH_TOKEN_TTL', '');
    expect(await lifetimes()).toEqual([900, 2_592_000]);

    vi.stubEnv('ACCESS_TOKEN_TTL', '60');
    vi.stubEnv('REFRESH_TOKEN_TTL', '600');
    expect(await lifetimes()).toEqual([60, 600]);
  });

  it('takes now as the server clock: an access token works until its exp and answers TOKEN_EXPIRED from then on, counted', async () => {
    let clock = Date.parse('2030-01-01T00:00:00.500Z');
    const server = await start({ now: () => clock, accessTokenTtl: 900 });
    const { accessToken } = await login(server);

    clock += 899_000;
    expect((await gql(server, ME, { token: accessToken })).body.errors).toBeUndefined();

    clock += 1_000;
    const { body } = await gql(server, ME, { token: accessToken });
    expect(body).toEqual({
      data: null,
      errors: [expect.objectContaining({ message: expect.any(String), extensions: { code: 'TOKEN_EXPIRED' } })],
    });
    expect(server.stats.tokenExpired).toBe(1);
  });
});
