import { describe, expect, it, vi } from 'vitest';
import type { TestAuthServer } from '../../src/testing';
import { ping, startSpecSession, useCleanups } from '../helpers/overHttp';

// Found by the test suites of apollo-link-token-refresh and urql's authExchange, rewritten against this package
// (issue 38): operations started while the refresh that TOKEN_EXPIRED began was on the wire went out with the
// token the server had just refused, bounced, and spent their one replay on it.

const cleanups = useCleanups();

/** The spec test server and a session over HTTP on one test clock, signed in. */
async function start() {
  const started = await startSpecSession(cleanups);
  await started.auth.login('admin@demo.test', 'admin-pass');
  return started;
}

/** The access tokens the server saw on GraphQL requests since `from` (a login or refresh has none). */
const bearersSince = (server: TestAuthServer, from: number) =>
  server.stats.authorizationHeaders.slice(from).filter((header) => header !== '');

describe('a token the server refused is never sent again', () => {
  it('a burst of 10 started while the refresh TOKEN_EXPIRED began is out makes 10 requests, with the new token', async () => {
    const { server, auth, client } = await start();
    const refused = await auth.getAccessToken();
    // The server ends every access token it issued; by the session's clock, this one has 15 minutes left.
    server.expireAllAccessTokens();
    server.faults.delayMs['refreshToken'] = 300;
    const first = ping(client, 0);
    await vi.waitFor(() => expect(server.stats.refreshCalls).toBe(1));
    const before = server.stats.requests;
    const mark = server.stats.authorizationHeaders.length;

    const burst = await Promise.all(Array.from({ length: 10 }, (_, n) => ping(client, n + 1)));
    await first;

    expect(burst.map((result) => result.data)).toEqual(Array.from({ length: 10 }, (_, n) => ({ ping: n + 1 })));
    // The burst's 10 and the first operation's replay (the refresh was counted as it arrived): none bounced.
    expect(server.stats.requests - before).toBe(10 + 1);
    expect(server.stats.refreshCalls).toBe(1);
    expect(server.stats.tokenExpired).toBe(1);
    const renewed = await auth.getAccessToken();
    expect(renewed).not.toBe(refused);
    expect(bearersSince(server, mark)).toEqual(Array.from({ length: 11 }, () => `Bearer ${renewed}`));
  });

  it('a token nobody refused still goes out at once while a proactive refresh is out', async () => {
    const { server, auth, client } = await start();
    const valid = await auth.getAccessToken();
    server.faults.delayMs['refreshToken'] = 1000;
    const refreshing = auth.refresh();
    await vi.waitFor(() => expect(server.stats.refreshCalls).toBe(1));
    const mark = server.stats.authorizationHeaders.length;

    await Promise.all(Array.from({ length: 3 }, (_, n) => ping(client, n)));
    // Answered before the refresh settled, with the token that was still good.
    expect(server.stats.refreshSuccesses).toBe(0);
    expect(bearersSince(server, mark)).toEqual(Array.from({ length: 3 }, () => `Bearer ${valid}`));
    await refreshing;
  });
});
