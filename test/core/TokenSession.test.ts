import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  AuthRejectedError,
  AuthRequestError,
  type Clock,
  createMemoryTokenStore,
  SessionEndedError,
  type TokenStore,
  createTokenStore,
} from '../../src';
import { createFetchStub, rejection } from '../helpers/fetchStub';
import { makeJwt, makePair } from '../helpers/jwt';
import { loggedIn, setup, TIME, accessTokenOf } from '../helpers/session';

const { T0, MINUTE } = TIME;

beforeEach(() => {
  vi.useFakeTimers({ now: T0 });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('login', () => {
  it('stores the pair, publishes the user with the role from the token, and schedules a refresh', async () => {
    const { session, stub, store, states } = setup();
    await vi.advanceTimersByTimeAsync(0);
    expect(session.getState().status).toBe('unauthenticated');
    const login = session.login('a@b.test', 'pw');
    await vi.advanceTimersByTimeAsync(0);
    const call = stub.last('loginWithEmailPassword');
    expect(call.variables).toEqual({ email: 'a@b.test', password: 'pw' });
    const pair = makePair('login', { role: 'Cashier' });
    call.respond({
      data: { loginWithEmailPassword: { ...pair, user: { id: 'u_9', email: 'c@d.test', role: 'Cashier' } } },
    });
    const { user } = await login;
    expect(user).toMatchObject({ id: 'u_9', email: 'c@d.test', role: 'Cashier' });
    expect(await store.get()).toEqual({ ...pair, receivedAt: T0 });
    const state = session.getState();
    expect(state).toMatchObject({
      status: 'authenticated',
      expiresAt: T0 + 15 * MINUTE,
      refreshAt: T0 + 15 * MINUTE - 150_000,
    });
    // An empty synchronous store is signed out from the start, with no 'loading' to leave.
    expect(states).toEqual(['authenticated']);
  });

  it('rejects bad credentials with the server code and stores nothing', async () => {
    const { session, stub, store } = setup();
    const login = session.login('a@b.test', 'wrong');
    await vi.advanceTimersByTimeAsync(0);
    stub.last('loginWithEmailPassword').respond(rejection('INVALID_CREDENTIALS', 'Invalid e-mail or password'));
    const error = await login.catch((e: unknown) => e);
    expect(AuthRejectedError.is(error)).toBe(true);
    expect(error).toMatchObject({ code: 'INVALID_CREDENTIALS', operation: 'loginWithEmailPassword' });
    expect(await store.get()).toBeNull();
    expect(session.getState()).toEqual({ status: 'unauthenticated', user: null, error });
  });

  it('clears the error of a failed login with the next successful one', async () => {
    const { session, stub } = setup();
    const failed = session.login('a@b.test', 'wrong').catch(() => {});
    await vi.advanceTimersByTimeAsync(0);
    stub.last('loginWithEmailPassword').respond(rejection('INVALID_CREDENTIALS'));
    await failed;
    expect(session.getState().error).toMatchObject({ code: 'INVALID_CREDENTIALS' });
    stub.auto = true;
    await session.login('a@b.test', 'pw');
    expect(session.getState()).toMatchObject({ status: 'authenticated' });
    expect(session.getState().error).toBeUndefined();
  });

  it.each([
    [
      'a body that is not JSON',
      (call: ReturnType<typeof createFetchStub>['calls'][number]) => call.respondRaw('<html>oops</html>', 200),
      /not JSON/,
    ],
    [
      'HTTP 502',
      (call: ReturnType<typeof createFetchStub>['calls'][number]) => call.respondRaw('Bad gateway', 502),
      /not JSON/,
    ],
    [
      'a missing refresh token',
      (call: ReturnType<typeof createFetchStub>['calls'][number]) =>
        call.respond({
          data: { loginWithEmailPassword: { accessToken: makePair('x').accessToken, user: { id: '1' } } },
        }),
      /without a valid refreshToken/,
    ],
    [
      'an access token that is not a JWT',
      (call: ReturnType<typeof createFetchStub>['calls'][number]) =>
        call.respond({
          data: { loginWithEmailPassword: { accessToken: 'nope', refreshToken: 'r', user: { id: '1' } } },
        }),
      /not a valid JWT/,
    ],
    [
      'no data',
      (call: ReturnType<typeof createFetchStub>['calls'][number]) => call.respond({ data: null }),
      /without data.loginWithEmailPassword/,
    ],
    [
      'a network failure',
      (call: ReturnType<typeof createFetchStub>['calls'][number]) => call.fail(),
      /failed on the network/,
    ],
  ])('rejects %s with a clear AuthRequestError and stores nothing', async (_name, answer, message) => {
    const { session, stub, store } = setup();
    const login = session.login('a@b.test', 'pw');
    await vi.advanceTimersByTimeAsync(0);
    answer(stub.last('loginWithEmailPassword'));
    const error = await login.catch((e: unknown) => e);
    expect(AuthRequestError.is(error)).toBe(true);
    expect((error as Error).message).toMatch(message);
    expect(await store.get()).toBeNull();
    expect(session.getState().status).toBe('unauthenticated');
  });
});

describe('refresh', () => {
  it('shares one request among concurrent callers and stores the rotated pair before they resume', async () => {
    const { session, stub, store } = await loggedIn({ auto: false });
    const callers = [session.refresh(), session.refresh(), session.refresh()];
    await vi.advanceTimersByTimeAsync(0);
    expect(stub.of('refreshToken')).toHaveLength(1);
    const old = (await store.get())!;
    expect(stub.last('refreshToken').variables).toEqual({ token: old.refreshToken });
    const next = stub.nextPair();
    stub.last('refreshToken').respond({ data: { refreshToken: next } });
    await Promise.all(callers);
    expect(await store.get()).toEqual({ ...next, receivedAt: T0 });
    expect(await session.getAccessToken()).toBe(next.accessToken);
  });

  it('ends the session when the refresh token is rejected: store cleared, listeners told, callers get SessionEndedError', async () => {
    const { session, stub, store, onSessionEnd, states } = await loggedIn({ auto: false });
    const callers = [session.refresh(), session.refresh()];
    await vi.advanceTimersByTimeAsync(0);
    stub.last('refreshToken').respond(rejection('INVALID_REFRESH_TOKEN'));
    const errors = await Promise.all(callers.map((p) => p.catch((e: unknown) => e)));
    for (const error of errors) {
      expect(SessionEndedError.is(error)).toBe(true);
      expect(error).toMatchObject({ reason: 'rejected' });
      expect(AuthRejectedError.is((error as Error).cause)).toBe(true);
    }
    expect(await store.get()).toBeNull();
    expect(session.getState()).toEqual({
      status: 'unauthenticated',
      user: null,
      error: errors[0],
      ended: {
        reason: 'rejected',
        elsewhere: false,
        rejection: 'revoked',
        message: 'INVALID_REFRESH_TOKEN',
        at: Date.now(),
      },
    });
    expect(states).toEqual(['unauthenticated']);
    expect(onSessionEnd).toHaveBeenCalledTimes(1);
    expect(onSessionEnd.mock.calls[0]![0]).toMatchObject({ reason: 'rejected' });
    // No loop: nothing else is sent, even after the timer would have fired.
    await vi.advanceTimersByTimeAsync(60 * MINUTE);
    expect(stub.of('refreshToken')).toHaveLength(1);
  });

  it('keeps the session after a network failure and retries with backoff from the timer', async () => {
    // No floor: this test is about the backoff alone (the floor has tests of its own).
    const { session, stub, store, onError } = await loggedIn({
      auto: false,
      refreshFloor: 0,
      retryDelay: (attempt) => 1000 * 2 ** (attempt - 1),
    });
    const before = await store.get();
    const refresh = session.refresh();
    await vi.advanceTimersByTimeAsync(0);
    stub.last('refreshToken').fail();
    const error = await refresh.catch((e: unknown) => e);
    expect(AuthRequestError.is(error)).toBe(true);
    expect(session.getState().status).toBe('authenticated');
    expect(await store.get()).toEqual(before);
    await vi.advanceTimersByTimeAsync(999);
    expect(stub.of('refreshToken')).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(stub.of('refreshToken')).toHaveLength(2);
    stub.last('refreshToken').respondRaw('upstream down', 503);
    await vi.advanceTimersByTimeAsync(1999);
    expect(stub.of('refreshToken')).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(stub.of('refreshToken')).toHaveLength(3);
    stub.answer(stub.last('refreshToken'));
    await vi.advanceTimersByTimeAsync(0);
    expect(onError).toHaveBeenCalledWith(expect.objectContaining({ name: 'AuthRequestError', status: 503 }));
    expect((await store.get())!.refreshToken).toBe('refresh-p2');
  });

  it('gives up on a refresh that never answers after refreshTimeout and its 1 s of grace, and keeps the session', async () => {
    const { session, stub } = await loggedIn({ auto: false, refreshTimeout: 5_000 });
    const refresh = session.refresh().catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(5_999);
    expect(stub.last('refreshToken').settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const error = await refresh;
    expect(AuthRequestError.is(error)).toBe(true);
    expect((error as Error).message).toBe('refreshToken got no answer within 5000 ms.');
    expect(session.getState().status).toBe('authenticated');
  });

  it('rejects with SessionEndedError when nobody is logged in, without a request', async () => {
    const { session, stub } = setup();
    const error = await session.refresh().catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'SessionEndedError', reason: 'no-session' });
    expect(stub.calls).toHaveLength(0);
  });

  it('treats INTERNAL_SERVER_ERROR as an uncertain refusal and HTTP 429 as transient: the session is kept', async () => {
    const { session, stub } = await loggedIn({ auto: false });
    const first = session.refresh().catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(0);
    stub.last('refreshToken').respond(rejection('INTERNAL_SERVER_ERROR'));
    expect(await first).toMatchObject({ name: 'AuthRejectedError', uncertain: true });
    expect(session.getState().status).toBe('authenticated');
    const second = session.refresh().catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(0);
    stub.last('refreshToken').respond(rejection('RATE_LIMITED'), 429);
    expect(AuthRequestError.is(await second)).toBe(true);
    expect(session.getState().status).toBe('authenticated');
  });
});

describe('proactive refresh', () => {
  it('refreshes refreshLeadTime before expiry, once per token lifetime', async () => {
    const { stub } = await loggedIn({ refreshLeadTime: 2 * MINUTE });
    await vi.advanceTimersByTimeAsync(13 * MINUTE - 1);
    expect(stub.of('refreshToken')).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(stub.of('refreshToken')).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(13 * MINUTE);
    expect(stub.of('refreshToken')).toHaveLength(2);
  });

  it('refreshes at 85 % of the lifetime when the lead time is not shorter than the lifetime', async () => {
    const { stub, session } = await loggedIn({ refreshLeadTime: 150_000, lifetimeSeconds: 60 });
    expect(session.getState().refreshAt).toBe(T0 + 51_000);
    await vi.advanceTimersByTimeAsync(50_999);
    expect(stub.of('refreshToken')).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(stub.of('refreshToken')).toHaveLength(1);
  });

  it('times a token from its own lifetime when the server clock is 10 minutes off', async () => {
    const { session, stub } = setup({ auto: false });
    const login = session.login('a@b.test', 'pw');
    await vi.advanceTimersByTimeAsync(0);
    const skewed = makePair('skewed', { now: T0 - 10 * MINUTE });
    stub
      .last('loginWithEmailPassword')
      .respond({ data: { loginWithEmailPassword: { ...skewed, user: { id: 'u_1' } } } });
    await login;
    expect(session.getState()).toMatchObject({ expiresAt: T0 + 15 * MINUTE, refreshAt: T0 + 15 * MINUTE - 150_000 });
    // Read naively, exp would already be 5 minutes from now; the operation must go out with no refresh.
    expect(accessTokenOf(session)).toBe(skewed.accessToken);
  });

  it('refreshes at once when the timer fires late after the machine slept past expiry', async () => {
    const { stub, session } = await loggedIn();
    vi.setSystemTime(T0 + 40 * MINUTE);
    expect(stub.of('refreshToken')).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(12.5 * MINUTE);
    expect(stub.of('refreshToken')).toHaveLength(1);
    expect(session.getState().expiresAt).toBe(T0 + 52.5 * MINUTE + 15 * MINUTE);
  });

  it('arms no timer for a token without exp, and still sends it', async () => {
    const { session, stub } = setup({ auto: false });
    const login = session.login('a@b.test', 'pw');
    await vi.advanceTimersByTimeAsync(0);
    const pair = { accessToken: makeJwt({ sub: 'u_1', role: 'ADMIN' }), refreshToken: 'r' };
    stub.last('loginWithEmailPassword').respond({ data: { loginWithEmailPassword: { ...pair, user: { id: 'u_1' } } } });
    await login;
    expect(session.getState()).toMatchObject({ status: 'authenticated', user: { role: 'ADMIN' } });
    expect(session.getState().expiresAt).toBeUndefined();
    expect(vi.getTimerCount()).toBe(0);
    expect(accessTokenOf(session)).toBe(pair.accessToken);
  });

  it('reads time only from an injected clock', async () => {
    let now = T0 + 1_000 * MINUTE;
    const timers: Array<{ at: number; fn: () => void }> = [];
    const clock: Clock = {
      now: () => now,
      setTimeout: (fn, delay) => timers.push({ at: now + delay, fn }),
      clearTimeout: () => {},
    };
    const { session, stub } = setup({ auto: true, clock });
    await vi.advanceTimersByTimeAsync(0);
    await session.login('a@b.test', 'pw');
    // The stub issues tokens by Date.now (T0); the session times them from the injected clock.
    expect(session.getState().expiresAt).toBe(now + 15 * MINUTE);
    const refreshTimer = timers.at(-1)!;
    expect(refreshTimer.at).toBe(now + 15 * MINUTE - 150_000);
    now = refreshTimer.at;
    refreshTimer.fn();
    await vi.advanceTimersByTimeAsync(0);
    expect(stub.of('refreshToken')).toHaveLength(1);
  });
});

describe('restore from a pre-filled store', () => {
  it('is loading until the store answers, then authenticated with the role from the claims', async () => {
    let answer!: (pair: unknown) => void;
    const pair = makePair('stored', { role: 'Cashier' });
    const store = createTokenStore({
      get: () => new Promise((r) => (answer = r as never)),
      set: vi.fn(),
      clear: vi.fn(),
    });
    const { session, stub, states } = setup({ store });
    expect(session.getState().status).toBe('loading');
    const token = session.getAccessToken();
    answer(pair);
    expect(await token).toBe(pair.accessToken);
    expect(session.getState()).toMatchObject({
      status: 'authenticated',
      user: { id: 'u_1', email: 'a@b.test', role: 'Cashier' },
    });
    expect(states).toEqual(['authenticated']);
    expect(stub.calls).toHaveLength(0);
  });

  it('refreshes a dead stored access token before reporting authenticated', async () => {
    const dead = makePair('dead', { now: T0 - 20 * MINUTE });
    const { session, stub, states, store } = setup({ store: createMemoryTokenStore(dead), auto: true });
    const token = await session.getAccessToken();
    expect(stub.of('refreshToken')).toHaveLength(1);
    expect(stub.last('refreshToken').variables).toEqual({ token: dead.refreshToken });
    expect(token).toBe((await store.get())!.accessToken);
    expect(token).not.toBe(dead.accessToken);
    expect(states).toEqual(['authenticated']);
  });

  it('ends in unauthenticated when the stored refresh token is rejected', async () => {
    const dead = makePair('dead', { now: T0 - 20 * MINUTE });
    const { session, stub, states, store, onSessionEnd } = setup({ store: createMemoryTokenStore(dead) });
    await vi.advanceTimersByTimeAsync(0);
    stub.last('refreshToken').respond(rejection('INVALID_REFRESH_TOKEN'));
    await vi.advanceTimersByTimeAsync(0);
    expect(session.getState().status).toBe('unauthenticated');
    expect(states).toEqual(['unauthenticated']);
    expect(await store.get()).toBeNull();
    expect(onSessionEnd).toHaveBeenCalledWith(expect.objectContaining({ reason: 'rejected' }));
  });

  it('renews a stored access token that is not a JWT, with the stored refresh token', async () => {
    const { session, stub } = setup({
      store: createMemoryTokenStore({ accessToken: 'garbage', refreshToken: 'r0' }),
      auto: true,
    });
    await session.getAccessToken();
    expect(stub.last('refreshToken').variables).toEqual({ token: 'r0' });
    expect(session.getState().status).toBe('authenticated');
  });

  it('clears a stored value that is not a pair, and a store that throws leaves the client signed out', async () => {
    const store = createMemoryTokenStore({ accessToken: 'a' } as never);
    const { session } = setup({ store });
    await vi.advanceTimersByTimeAsync(0);
    expect(session.getState().status).toBe('unauthenticated');
    expect(await store.get()).toBeNull();
    const broken = createTokenStore({
      get: () => Promise.reject(new Error('keychain locked')),
      set: vi.fn(),
      clear: vi.fn(),
    });
    const other = setup({ store: broken });
    await vi.advanceTimersByTimeAsync(0);
    expect(other.session.getState().status).toBe('unauthenticated');
    expect(other.onError).toHaveBeenCalledWith(new Error('keychain locked'));
  });
});

describe('logout', () => {
  it('ends the session at once, then revokes the refresh token on the server', async () => {
    const { session, stub, store, onSessionEnd } = await loggedIn({ auto: false });
    const pair = (await store.get())!;
    const logout = session.logout();
    expect(session.getState().status).toBe('unauthenticated');
    expect(accessTokenOf(session)).toBeNull();
    await vi.advanceTimersByTimeAsync(0);
    expect(stub.last('logout').variables).toEqual({ refreshToken: pair.refreshToken });
    stub.answer(stub.last('logout'));
    await logout;
    expect(await store.get()).toBeNull();
    expect(onSessionEnd).toHaveBeenCalledWith({ reason: 'logout', elsewhere: false });
    expect(vi.getTimerCount()).toBe(0);
  });

  it('resolves and ends the session even when the server cannot be reached', async () => {
    const { session, stub, store, onError } = await loggedIn({ auto: false });
    const logout = session.logout();
    await vi.advanceTimersByTimeAsync(0);
    stub.last('logout').fail();
    await expect(logout).resolves.toBeUndefined();
    expect(await store.get()).toBeNull();
    expect(onError).toHaveBeenCalledWith(expect.objectContaining({ operation: 'logout' }));
  });

  it('during a refresh: waiters fail, the late pair is revoked, never stored, and cannot revive the session', async () => {
    const { session, stub, store } = await loggedIn({ auto: false });
    const waiter = session.refresh().catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(0);
    const logout = session.logout();
    const late = stub.nextPair();
    stub.last('refreshToken').respond({ data: { refreshToken: late } });
    await vi.advanceTimersByTimeAsync(0);
    expect(stub.last('logout').variables).toEqual({ refreshToken: late.refreshToken });
    stub.answer(stub.last('logout'));
    await logout;
    expect(await waiter).toMatchObject({ name: 'SessionEndedError', reason: 'logout' });
    expect(session.getState().status).toBe('unauthenticated');
    expect(await store.get()).toBeNull();
    expect(accessTokenOf(session)).toBeNull();
  });
});

describe('store consistency', () => {
  it('writes an async store in session order, so a slow write never lands after logout', async () => {
    const writes: string[] = [];
    let pair: unknown = null;
    const store = createTokenStore({
      get: () => pair as never,
      set: async (next) => {
        await new Promise((r) => setTimeout(r, 50));
        pair = next;
        writes.push(`set ${next.refreshToken}`);
      },
      clear: async () => {
        pair = null;
        writes.push('clear');
      },
    });
    const { session } = setup({ store, auto: true });
    const login = session.login('a@b.test', 'pw');
    await vi.advanceTimersByTimeAsync(1);
    const logout = session.logout();
    await vi.advanceTimersByTimeAsync(100);
    await Promise.all([login, logout]);
    expect(writes).toEqual(['set refresh-p1', 'clear']);
    expect(pair).toBeNull();
  });

  it('reports a store that fails to write to onError and keeps the session in memory', async () => {
    const store = createTokenStore({
      get: () => null,
      set: () => Promise.reject(new Error('disk full')),
      clear: () => {},
    });
    const { session, onError } = setup({ store, auto: true });
    await session.login('a@b.test', 'pw');
    expect(session.getState().status).toBe('authenticated');
    expect(onError).toHaveBeenCalledWith(new Error('disk full'));
  });
});

describe('onRefresh', () => {
  it('reports what started each refresh and how it ended', async () => {
    const onRefresh = vi.fn();
    const { session, stub } = await loggedIn({ onRefresh });
    await session.refresh();
    await vi.advanceTimersByTimeAsync(12.5 * 60_000);
    vi.setSystemTime(Date.now() + 20 * MINUTE);
    await session.getAccessToken();
    // Within the floor of the refresh just before: it waits for it.
    const recovering = session.recover((await session.current()) ?? undefined);
    await vi.advanceTimersByTimeAsync(5_000);
    await recovering;
    stub.auto = false;
    const failing = session.refresh().catch(() => {});
    await vi.advanceTimersByTimeAsync(0);
    stub.last('refreshToken').fail();
    await failing;
    const rejected = session.refresh().catch(() => {});
    await vi.advanceTimersByTimeAsync(0);
    stub.last('refreshToken').respond(rejection('INVALID_REFRESH_TOKEN'));
    await rejected;
    expect(onRefresh.mock.calls.map(([event]) => `${event.trigger}:${event.outcome}`)).toEqual([
      'manual:rotated',
      'proactive:rotated',
      'expired-locally:rotated',
      'token-expired:rotated',
      'manual:failed',
      'manual:rejected',
    ]);
  });
});

describe('dispose', () => {
  it('stops the timer and listeners', async () => {
    const { session, stub, states } = await loggedIn();
    expect(vi.getTimerCount()).toBe(1);
    session.dispose();
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(60 * MINUTE);
    expect(stub.of('refreshToken')).toHaveLength(0);
    await session.logout();
    expect(states).toEqual([]);
  });
});
