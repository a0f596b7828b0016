import { describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { createTokenAuth, createTokenHandlerTransport, SessionEndedError } from '../../src/index';
import { createTokenAuthWsClient } from '../../src/ws/index';
import { useCleanups } from '../helpers/overHttp';
import { bearerOf, idle, record, TICK, wsUrl } from '../helpers/overWs';
import { createCookieJar, startTokenHandler } from '../helpers/tokenHandler';

const cleanups = useCleanups();

/** A page in token-handler mode (the refresh token in the handler's cookie) with a graphql-ws client beside it. */
async function pageWithSocket() {
  const rig = await startTokenHandler(cleanups, { upstream: { tickerInterval: TICK } });
  const jar = createCookieJar();
  const pageFetch: typeof fetch = async (input, init) => {
    const headers = new Headers(init?.headers);
    headers.set('origin', rig.origin);
    const cookie = jar.header();
    if (cookie) headers.set('cookie', cookie);
    const response = await fetch(input, { ...init, headers });
    jar.store(response.headers.getSetCookie());
    return response;
  };
  const auth = createTokenAuth({
    transport: createTokenHandlerTransport(`${rig.origin}/auth`, { fetch: pageFetch }),
    refreshOnResume: false,
  });
  cleanups.push(() => auth.dispose());
  const client = createTokenAuthWsClient(auth, {
    url: wsUrl(rig.upstream),
    webSocketImpl: WebSocket,
    retryAttempts: 0,
  });
  cleanups.push(() => client.dispose());
  await vi.waitFor(() => expect(auth.getState().status).toBe('unauthenticated'));
  await auth.login('admin@demo.test', 'admin-pass');
  return { rig, auth, client };
}

describe('createTokenAuthWsClient in token-handler mode', () => {
  it('a 4401 at expiry: one refresh through the handler, the stream resumes with the new token', async () => {
    const { rig, auth, client } = await pageWithSocket();
    const ticker = record(client);
    await ticker.more(3);
    const old = await auth.getAccessToken();

    rig.upstream.ws.onExpiry = 4401;
    rig.upstream.expireAllAccessTokens();
    await vi.waitFor(() => expect(rig.upstream.ws.connectionParams).toHaveLength(2));
    await ticker.more(3);

    const renewed = await auth.getAccessToken();
    expect(renewed).not.toBe(old);
    expect(rig.upstream.ws.connectionParams.map(bearerOf)).toEqual([old, renewed]);
    expect(rig.upstream.stats).toMatchObject({ refreshCalls: 1, refreshSuccesses: 1, reuseDetections: 0 });
    expect(ticker.errors).toEqual([]);
    expect(ticker.failedResults).toEqual([]);
  });

  it('logout: the stream ends with SessionEndedError and no event arrives afterwards', async () => {
    const { rig, auth, client } = await pageWithSocket();
    const ticker = record(client);
    await ticker.more(3);

    await auth.logout();
    const atLogout = ticker.ticks.length;
    await idle();

    expect(ticker.errors.map((error) => (SessionEndedError.is(error) ? error.reason : String(error)))).toEqual([
      'logout',
    ]);
    expect(ticker.ticks.length).toBe(atLogout);
    await vi.waitFor(() => expect(rig.upstream.ws.open).toBe(0));
    expect(rig.upstream.stats.logoutCalls).toBe(1);
  });
});
