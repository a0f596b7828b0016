import { describe, expect, it } from 'vitest';
import { ME, REFRESH } from './helpers';
import { gql, login, NO_SIGN_IN_DOOR_CALLS, refresh, useListeningServers } from './httpHelpers';

const start = useListeningServers();

describe('stats', () => {
  it('counts every POST /graphql and records its Authorization header, empty when absent', async () => {
    const server = await start();
    const { accessToken } = await login(server);
    await gql(server, ME, { token: accessToken });
    await fetch(server.url, { method: 'POST', headers: { authorization: 'Bearer x' }, body: '{' });
    await fetch(server.url, { method: 'OPTIONS' });

    expect(server.stats.requests).toBe(3);
    expect(server.stats.authorizationHeaders).toEqual(['', `Bearer ${accessToken}`, 'Bearer x']);
  });

  it('keeps only the last 10 000 Authorization headers and submitted refresh tokens', async () => {
    const server = await start();
    const { authorizationHeaders, refreshTokensSubmitted } = server.stats;
    for (const history of [authorizationHeaders, refreshTokensSubmitted]) {
      history.push(...Array.from({ length: 10_000 }, (_, i) => `old ${i}`));
    }

    await gql(server, REFRESH, { variables: { token: 'newest' }, authorization: 'Bearer newest' });

    for (const [history, newest] of [
      [authorizationHeaders, 'Bearer newest'],
      [refreshTokensSubmitted, 'newest'],
    ] as const) {
      expect(history).toHaveLength(10_000);
      expect(history[0]).toBe('old 1');
      expect(history.at(-1)).toBe(newest);
    }
  });

  it('resetStats zeroes every counter and empties the histories in place', async () => {
    const server = await start();
    const { stats } = server;
    const { accessToken, refreshToken } = await login(server);
    await gql(server, ME, { token: accessToken });
    await refresh(server, refreshToken);

    server.resetStats();

    expect(server.stats).toBe(stats);
    expect(stats).toEqual({
      loginCalls: 0,
      refreshCalls: 0,
      refreshSuccesses: 0,
      reuseDetections: 0,
      logoutCalls: 0,
      renames: 0,
      ...NO_SIGN_IN_DOOR_CALLS,
      tokenExpired: 0,
      requests: 0,
      authorizationHeaders: [],
      refreshTokensSubmitted: [],
      refreshTokensIssued: [],
    });
  });
});
