import { describe, expect, it, vi } from 'vitest';
import { codes, LOGIN, ME, REFRESH } from './helpers';
import { gql, login, refresh, useListeningServers } from './httpHelpers';

const start = useListeningServers();

describe('faults', () => {
  it('delayMs delays the named field only', async () => {
    const server = await start();
    const { accessToken } = await login(server);
    server.faults.delayMs['me'] = 150;

    const timed = async (query: string) => {
      const startedAt = performance.now();
      await gql(server, query, { token: accessToken });
      return performance.now() - startedAt;
    };

    expect(await timed(ME)).toBeGreaterThanOrEqual(140);
    expect(await timed('{ ping }')).toBeLessThan(100);
  });

  it('dropRefreshResponses rotates server-side, then destroys the socket, and counts down', async () => {
    const server = await start();
    const { refreshToken } = await login(server);
    server.faults.dropRefreshResponses = 1;

    await expect(refresh(server, refreshToken)).rejects.toThrow();

    expect(server.faults.dropRefreshResponses).toBe(0);
    expect(server.stats).toMatchObject({ refreshCalls: 1, refreshSuccesses: 1 });
    expect(codes((await refresh(server, refreshToken)).body)).toEqual(['INVALID_REFRESH_TOKEN']);
    expect(server.stats.reuseDetections).toBe(1);
    expect((await refresh(server, (await login(server)).refreshToken)).body.errors).toBeUndefined();
  });

  it('failNext answers the next request selecting its field with the raw response, executing nothing', async () => {
    const server = await start();
    const { accessToken, refreshToken } = await login(server);
    server.faults.failNext.push({ field: 'refreshToken', status: 502, body: 'Bad gateway', contentType: 'text/plain' });

    expect((await gql(server, ME, { token: accessToken })).body.errors).toBeUndefined();
    expect(server.faults.failNext).toHaveLength(1);

    const response = await fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: REFRESH, variables: { token: refreshToken } }),
    });

    expect(response.status).toBe(502);
    expect(response.headers.get('content-type')).toBe('text/plain');
    expect(await response.text()).toBe('Bad gateway');
    expect(server.faults.failNext).toHaveLength(0);
    expect(server.stats).toMatchObject({ requests: 3, refreshCalls: 0 });
    expect((await refresh(server, refreshToken)).body.errors).toBeUndefined();
  });

  it('failNext without a field applies to any request, as application/json by default', async () => {
    const server = await start();
    const body = JSON.stringify({ errors: [{ message: 'nope', extensions: { code: 'UNAUTHENTICATED' } }] });
    server.faults.failNext.push({ status: 401, body }, { status: 500, body: '{}' });

    const first = await gql(server, LOGIN, { variables: { email: 'owner@demo.test', password: 'owner-pass' } });
    const second = await gql(server, ME);

    expect([first.status, second.status]).toEqual([401, 500]);
    expect(first.headers.get('content-type')).toBe('application/json');
    expect(first.body).toEqual(JSON.parse(body));
    expect(server.stats.loginCalls).toBe(0);
  });

  it('hangRefresh leaves refreshes unanswered until close() destroys their sockets', async () => {
    const server = await start();
    const { refreshToken } = await login(server);
    server.faults.hangRefresh = true;

    const pending = refresh(server, refreshToken);
    const outcome = pending.then(
      () => 'answered',
      () => 'failed',
    );
    await vi.waitFor(() => expect(server.stats.refreshCalls).toBe(1));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await Promise.race([outcome, 'still pending'])).toBe('still pending');

    await server.close();

    expect(await outcome).toBe('failed');
    expect(server.stats.refreshSuccesses).toBe(0);
  });

  it('close() ends a delayed request at once', async () => {
    const server = await start();
    server.faults.delayMs['loginWithEmailPassword'] = 10_000;

    const startedAt = performance.now();
    const pending = login(server);
    await vi.waitFor(() => expect(server.stats.loginCalls).toBe(1));
    await server.close();

    await expect(pending).rejects.toThrow();
    expect(performance.now() - startedAt).toBeLessThan(1_000);
  });
});
