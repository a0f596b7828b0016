import { ApolloLink } from '@apollo/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createMemoryTokenStore, createTokenAuth, type TokenAuthOptions } from '../../src';
import { createFetchStub, rejection } from '../helpers/fetchStub';
import { makePair } from '../helpers/jwt';
import { createServerLink, execute } from '../helpers/links';

const T0 = Date.UTC(2026, 0, 1, 12, 0, 0);

async function setup(options: Partial<TokenAuthOptions> = {}) {
  const stub = createFetchStub({ auto: true });
  const server = createServerLink();
  const auth = createTokenAuth({ uri: 'http://auth.test/graphql', fetch: stub.fetch, ...options });
  const link = ApolloLink.from([auth.link, server.link]);
  await auth.login('a@b.test', 'pw');
  stub.auto = false;
  stub.calls.length = 0;
  const token = (await auth.getAccessToken())!;
  return { auth, stub, server, link, token };
}

beforeEach(() => {
  vi.useFakeTimers({ now: T0 });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('auth.link with the session', () => {
  it('50 concurrent TOKEN_EXPIRED operations share one refresh and all succeed with the new token', async () => {
    const { stub, server, link, token } = await setup();
    server.expired.add(token);
    const runs = Array.from({ length: 50 }, (_, i) => execute(link, { i }));
    await vi.advanceTimersByTimeAsync(0);
    expect(stub.of('refreshToken')).toHaveLength(1);
    const next = stub.nextPair();
    stub.last('refreshToken').respond({ data: { refreshToken: next } });
    await Promise.all(runs.map((run) => run.done));
    expect(stub.of('refreshToken')).toHaveLength(1);
    for (const run of runs) {
      expect(run.error).toBeUndefined();
      expect(run.results).toEqual([{ data: { me: { id: 'u_1', token: next.accessToken } } }]);
    }
    const replays = server.attempts.slice(50);
    expect(replays).toHaveLength(50);
    expect(new Set(replays.map((a) => a.authorization))).toEqual(new Set([`Bearer ${next.accessToken}`]));
  });

  it('replays failures that arrive after the pair was replaced with the current token and no second refresh', async () => {
    const { auth, stub, server, link, token } = await setup();
    stub.auto = true;
    server.expired.add(token);
    server.hold = true;
    const runs = Array.from({ length: 10 }, (_, i) => execute(link, { i }));
    expect(server.attempts.map((a) => a.authorization)).toEqual(Array(10).fill(`Bearer ${token}`));
    server.release(1);
    await vi.advanceTimersByTimeAsync(0);
    expect(stub.of('refreshToken')).toHaveLength(1);
    const current = (await auth.getAccessToken())!;
    expect(current).not.toBe(token);
    // The other nine TOKEN_EXPIRED answers come back only now, after the rotation.
    server.hold = false;
    server.release();
    await Promise.all(runs.map((run) => run.done));
    expect(stub.of('refreshToken')).toHaveLength(1);
    for (const run of runs) expect(run.results).toEqual([{ data: { me: { id: 'u_1', token: current } } }]);
    expect(server.attempts.slice(10).map((a) => a.authorization)).toEqual(Array(10).fill(`Bearer ${current}`));
  });

  it('sends operations that start during a refresh at once with the token that is still valid', async () => {
    const { auth, stub, server, link, token } = await setup();
    const refresh = auth.refresh();
    const running = Array.from({ length: 5 }, () => execute(link));
    await vi.advanceTimersByTimeAsync(0);
    expect(server.attempts.map((a) => a.authorization)).toEqual(Array(5).fill(`Bearer ${token}`));
    await Promise.all(running.map((run) => run.done));
    const next = stub.nextPair();
    stub.last('refreshToken').respond({ data: { refreshToken: next } });
    await refresh;
    expect(await auth.getAccessToken()).toBe(next.accessToken);
    expect(stub.of('refreshToken')).toHaveLength(1);
  });

  it('renews an access token that is dead by the local clock before the operation goes out', async () => {
    const { stub, server, link } = await setup({ refreshLeadTime: 0 });
    // Only the wall clock moves: the proactive timer has not fired, as on a laptop that slept through it.
    vi.setSystemTime(T0 + 16 * 60_000);
    const run = execute(link);
    await vi.advanceTimersByTimeAsync(0);
    expect(server.attempts).toHaveLength(0);
    expect(stub.of('refreshToken')).toHaveLength(1);
    const next = stub.nextPair();
    stub.last('refreshToken').respond({ data: { refreshToken: next } });
    await run.done;
    expect(server.attempts.map((a) => a.authorization)).toEqual([`Bearer ${next.accessToken}`]);
  });

  it('errors every waiting operation with SessionEndedError when the refresh is rejected, with no loop', async () => {
    const { auth, stub, server, link, token } = await setup();
    server.expired.add(token);
    const runs = Array.from({ length: 20 }, () => execute(link));
    await vi.advanceTimersByTimeAsync(0);
    stub.last('refreshToken').respond(rejection('INVALID_REFRESH_TOKEN'));
    await Promise.all(runs.map((run) => run.done));
    for (const run of runs) expect(run.error).toMatchObject({ name: 'SessionEndedError', reason: 'rejected' });
    expect(stub.of('refreshToken')).toHaveLength(1);
    expect(server.attempts).toHaveLength(20);
    expect(auth.getState().status).toBe('unauthenticated');
    // Signed out: the next operation goes out without a token.
    await execute(link).done;
    expect(server.attempts.at(-1)!.authorization).toBeUndefined();
  });

  it('keeps waiting operations through one transient refresh failure: they wait for its retry and replay with its pair', async () => {
    const { auth, stub, server, link, token } = await setup();
    server.expired.add(token);
    const runs = Array.from({ length: 3 }, () => execute(link));
    await vi.advanceTimersByTimeAsync(0);
    stub.last('refreshToken').respondRaw('<h1>502</h1>', 502);
    await vi.advanceTimersByTimeAsync(0);
    expect(auth.getState()).toMatchObject({ status: 'authenticated', retry: { attempt: 1, error: { status: 502 } } });
    for (const run of runs) expect(run.settled).toBe(false);
    // The retry is due within 10 s (the 5 s floor): the operations wait for it.
    await vi.advanceTimersByTimeAsync(5_000);
    expect(stub.of('refreshToken')).toHaveLength(2);
    const next = stub.nextPair();
    stub.last('refreshToken').respond({ data: { refreshToken: next } });
    await Promise.all(runs.map((run) => run.done));
    for (const run of runs) expect(run.error).toBeUndefined();
    expect(server.attempts.slice(3).map((a) => a.authorization)).toEqual(Array(3).fill(`Bearer ${next.accessToken}`));
  });

  it('errors waiting operations with the AuthRequestError when the retry they waited for fails too, and keeps the session', async () => {
    const { auth, stub, server, link, token } = await setup();
    server.expired.add(token);
    const runs = Array.from({ length: 3 }, () => execute(link));
    await vi.advanceTimersByTimeAsync(0);
    stub.last('refreshToken').respondRaw('<h1>502</h1>', 502);
    await vi.advanceTimersByTimeAsync(5_000);
    stub.last('refreshToken').respondRaw('<h1>503</h1>', 503);
    await Promise.all(runs.map((run) => run.done));
    for (const run of runs) expect(run.error).toMatchObject({ name: 'AuthRequestError', status: 503 });
    expect(stub.of('refreshToken')).toHaveLength(2);
    expect(auth.getState().status).toBe('authenticated');
  });

  it('tears down an operation unsubscribed while it waits, and the others still complete', async () => {
    const { stub, server, link, token } = await setup();
    server.expired.add(token);
    const [quitter, ...stayers] = Array.from({ length: 3 }, () => execute(link));
    await vi.advanceTimersByTimeAsync(0);
    quitter!.subscription.unsubscribe();
    stub.last('refreshToken').respond({ data: { refreshToken: stub.nextPair() } });
    await Promise.all(stayers.map((run) => run.done));
    await vi.advanceTimersByTimeAsync(0);
    expect(quitter!.settled).toBe(false);
    expect(server.attempts).toHaveLength(3 + 2);
  });

  it('never sends the refresh token with an operation', async () => {
    const store = createMemoryTokenStore(makePair('stored', { now: T0 }));
    const stub = createFetchStub({ auto: true });
    const server = createServerLink();
    const auth = createTokenAuth({ uri: 'http://auth.test/graphql', fetch: stub.fetch, store });
    const link = ApolloLink.from([auth.link, server.link]);
    await Promise.all(Array.from({ length: 3 }, () => execute(link).done));
    const { refreshToken } = (await store.get())!;
    expect(JSON.stringify(server.attempts)).not.toContain(refreshToken);
    expect(
      server.attempts.every((a) => a.authorization === `Bearer ${makePair('stored', { now: T0 }).accessToken}`),
    ).toBe(true);
  });
});

// Found following a newcomer's app: a newcomer's `createTokenAuth({})` constructed, and its first login failed "on
// the network".
describe('createTokenAuth without a way to reach the service', () => {
  it('throws at once, naming `uri` and `transport`', () => {
    expect(() => createTokenAuth({})).toThrow(
      'apollo-link-token-pair: createTokenAuth needs `uri`, the GraphQL endpoint of the auth service, or `transport`',
    );
    expect(() => createTokenAuth({ uri: '' })).toThrow(/needs `uri`/);
  });
});
