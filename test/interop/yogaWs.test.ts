import { describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { createTokenAuth } from '../../src';
import { createTokenAuthWsClient } from '../../src/ws';
import { useCleanups } from '../helpers/overHttp';
import { startYogaSpec } from './servers/startYogaSpec';
import { ADMIN } from './specServer';

const cleanups = useCleanups();

const TICKS = 'subscription { ticks(interval: 20) { n userId } }';

describe('./ws against GraphQL Yoga 5 with graphql-ws on the same server', () => {
  it('a subscription refused with TOKEN_EXPIRED costs one refresh, then runs with the new token', async () => {
    const server = await startYogaSpec();
    cleanups.push(() => server.close());
    const auth = createTokenAuth({ uri: server.url, refreshOnResume: false });
    cleanups.push(() => auth.dispose());
    const client = createTokenAuthWsClient(auth, { url: server.wsUrl, webSocketImpl: WebSocket, retryAttempts: 0 });
    cleanups.push(() => client.dispose());
    await auth.login(ADMIN.email, ADMIN.password);
    const before = await auth.getAccessToken();
    server.service.expireAccessTokens();

    const ticks: Array<{ n: number; userId: string }> = [];
    const failures: unknown[] = [];
    const stop = client.subscribe<{ ticks: { n: number; userId: string } }>(
      { query: TICKS },
      {
        next: (result) => (result.errors ? failures.push(result.errors) : ticks.push(result.data!.ticks)),
        error: (error) => failures.push(error),
        complete: () => {},
      },
    );
    cleanups.push(stop);
    await vi.waitFor(() => expect(ticks.length).toBeGreaterThanOrEqual(3), { timeout: 5000, interval: 10 });

    expect(failures).toEqual([]);
    expect(ticks.every((tick) => tick.userId === ADMIN.id)).toBe(true);
    expect(server.service.stats).toMatchObject({ refreshes: 1, refreshSuccesses: 1 });
    expect(await auth.getAccessToken()).not.toBe(before);
  });
});
