import { describe, expect, it } from 'vitest';
import { codes, ME } from './helpers';
import { control, gql, login, NO_SIGN_IN_DOOR_CALLS, refresh, useListeningServers } from './httpHelpers';

const start = useListeningServers();

describe('control routes', () => {
  it('POST /control/expire-access-tokens expires the access tokens issued so far', async () => {
    const server = await start();
    const { accessToken } = await login(server);

    const response = await control(server, '/control/expire-access-tokens');

    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(await response.json()).toEqual({ ok: true });
    expect(codes((await gql(server, ME, { token: accessToken })).body)).toEqual(['TOKEN_EXPIRED']);
  });

  it('POST /control/revoke-sessions revokes every session', async () => {
    const server = await start();
    const { accessToken } = await login(server);

    expect((await control(server, '/control/revoke-sessions')).status).toBe(200);

    expect(codes((await gql(server, ME, { token: accessToken })).body)).toEqual(['UNAUTHENTICATED']);
  });

  it('GET /control/stats reports the counters and the number of recorded headers; POST /control/reset-stats zeroes them', async () => {
    const server = await start();
    const { refreshToken } = await login(server);
    await refresh(server, refreshToken);

    const stats = await control(server, '/control/stats', 'GET');

    expect(stats.headers.get('access-control-allow-origin')).toBe('*');
    expect(await stats.json()).toEqual({
      loginCalls: 1,
      refreshCalls: 1,
      refreshSuccesses: 1,
      reuseDetections: 0,
      logoutCalls: 0,
      renames: 0,
      ...NO_SIGN_IN_DOOR_CALLS,
      tokenExpired: 0,
      requests: 2,
      authorizationHeaders: 2,
    });

    expect((await control(server, '/control/reset-stats')).status).toBe(200);
    expect(server.stats).toMatchObject({ loginCalls: 0, requests: 0, authorizationHeaders: [] });
  });
});
