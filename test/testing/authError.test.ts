import { describe, expect, it } from 'vitest';
import { createTestClock } from '../../src/testing';
import { LOGIN, ME } from './helpers';
import { gql, login, refresh, useListeningServers } from './httpHelpers';

const start = useListeningServers();

describe('authErrorStatus', () => {
  it('answers auth errors with 200 by default', async () => {
    const server = await start();

    expect((await gql(server, ME)).status).toBe(200);
    expect((await refresh(server, 'garbage')).status).toBe(200);
  });

  it('answers with the configured status when every error is an auth error, body unchanged', async () => {
    const clock = createTestClock();
    const server = await start({ authErrorStatus: 401, clock });
    const { accessToken } = await login(server);
    await clock.advance(901_000);

    const expired = await gql(server, '{ me { id } ping }', { token: accessToken });
    const cases = [
      expired,
      await gql(server, ME),
      await refresh(server, 'garbage'),
      await gql(server, LOGIN, { variables: { email: 'owner@demo.test', password: 'nope' } }),
    ];

    expect(cases.map(({ status }) => status)).toEqual([401, 401, 401, 401]);
    expect(expired.headers.get('content-type')).toMatch(/^application\/json/);
    expect(expired.body).toEqual({
      data: null,
      errors: [expect.objectContaining({ extensions: { code: 'TOKEN_EXPIRED' } })],
    });
    expect(server.stats.tokenExpired).toBe(1);
  });

  it('keeps 200 for successes and for errors that are not auth errors', async () => {
    const server = await start({ authErrorStatus: 401 });

    expect((await gql(server, LOGIN, { variables: { email: 'owner@demo.test', password: 'owner-pass' } })).status).toBe(
      200,
    );
    expect((await gql(server, '{ nope }')).status).toBe(200);
  });
});
