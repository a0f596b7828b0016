import { ApolloClient, ApolloLink, gql, HttpLink, InMemoryCache } from '@apollo/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  AuthRejectedError,
  AuthRequestError,
  type Clock,
  createMemoryTokenStore,
  createTokenAuth,
  createTokenStore,
  type RefreshEvent,
  SessionEndedError,
  type TokenAuthOptions,
  type TokenAuthState,
} from '../../../src';
import { createTestAuthServer, createTestClock, type TestAuthServer, type TestClock } from '../../../src/testing';
import { rejection } from '../../helpers/fetchStub';
import { makeJwt, makePair } from '../../helpers/jwt';
import { execute } from '../../helpers/links';
import {
  accessTokenOf,
  loggedIn,
  loggedInLinks,
  refreshCount,
  setup,
  tick,
  TIME,
  watch,
  useTestClock,
} from '../../helpers/session';

// Refresh and rotation: one request for concurrent callers, the rotated pair stored before anyone resumes, a
// refusal that ends the session, failures retried with backoff, the proactive timer, the refresh floor and the
// retries in use, and what onRefresh reports.

const { T0, MINUTE } = TIME;

useTestClock();

describe('refresh(): one request, the rotated pair, refusals and failures', () => {
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

describe('a refresh answer that spent the token but cannot be used', () => {
  it('ends the session instead of submitting the spent refresh token again', async () => {
    const { session, stub, store, onSessionEnd } = await loggedIn({ auto: false });
    const spent = (await store.get())!.refreshToken;
    const refresh = session.refresh().catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(0);
    stub.last('refreshToken').respond({ data: { refreshToken: { accessToken: 'not-a-jwt', refreshToken: 'r2' } } });
    expect(await refresh).toMatchObject({
      name: 'SessionEndedError',
      reason: 'rejected',
      cause: { name: 'AuthRequestError' },
    });
    await vi.advanceTimersByTimeAsync(60 * MINUTE);
    expect(stub.of('refreshToken').map((call) => call.variables.token)).toEqual([spent]);
    expect(session.getState().status).toBe('unauthenticated');
    expect(await store.get()).toBeNull();
    expect(onSessionEnd).toHaveBeenCalledTimes(1);
  });
});

describe('a refresh answered 401 or 403 without a GraphQL error code', () => {
  it.each([
    ['HTTP 401 with no body', 401, ''],
    ['HTTP 403 with no body', 403, ''],
    ['HTTP 401 with {}', 401, '{}'],
    ['HTTP 403 with {}', 403, '{}'],
    ['HTTP 401 with Unauthorized', 401, 'Unauthorized'],
  ])('ends the session when answered %s, with no retry', async (_name, status, body) => {
    const { auth, stub, onSessionEnd } = await loggedInLinks({ retryDelay: 1000 });
    const refresh = watch(auth.refresh());
    await tick();
    stub.last('refreshToken').respondRaw(body, status);
    await tick();
    expect(refresh.error).toMatchObject({ name: 'SessionEndedError', reason: 'rejected' });
    expect(auth.getState().status).toBe('unauthenticated');
    expect(onSessionEnd).toHaveBeenCalledTimes(1);
    expect(onSessionEnd.mock.calls[0]![0]).toMatchObject({ reason: 'rejected' });
    await tick(60 * MINUTE);
    expect(refreshCount(stub)).toBe(1);
  });
});

describe('a fetch that ignores its abort signal', () => {
  it('still fails the refresh after refreshTimeout, so nothing hangs', async () => {
    const deaf = (() => new Promise<Response>(() => {})) as typeof fetch;
    const { session } = await loggedIn({ refreshTimeout: 1_000 });
    const waiting = session.refresh().catch((e: unknown) => e);
    const { session: deafSession } = setup({
      fetch: deaf,
      refreshTimeout: 1_000,
      store: createMemoryTokenStore(makePair('x')),
    });
    const token = deafSession.refresh().catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(await token).toMatchObject({
      name: 'AuthRequestError',
      message: 'refreshToken got no answer within 1000 ms.',
    });
    expect(await waiting).toBeUndefined();
    expect(session.getState().status).toBe('authenticated');
  });
});

// Found by the soak (30 minutes, seed 1): a tab frozen for 42 s with its refresh on the wire. The service had
// answered; at the thaw the refresh's 30-second timeout fired before the answer was read, the session gave the
// refresh up as unanswered, and the spent token was submitted again: reuse, and the service revoked the session.
describe('a refresh on the wire while the page is frozen past its timeout', () => {
  // Frozen: the wall clock runs on (`frozenFor`), no timer fires and no answer is read. At the thaw the timeout
  // runs first, then the answer that was waiting (`answeredAt`, from the request) is read.
  // The second case was found by the soak again (30 minutes, seed 3, at 1225 s): frozen 0.3 s after the refresh
  // went out, for 30.6 s, so its 30-second timeout was only 0.7 s past due at the thaw, and a grace kept for timers
  // a second late missed it.
  it.each([
    { when: 'frozen 42 s', frozenFor: 42_000, answeredAt: 30_001 },
    { when: 'thawed less than a second after the timeout was due', frozenFor: 0, answeredAt: 30_001 },
  ])(
    'reads the answer that came in meanwhile instead of giving the refresh up: $when',
    async ({ frozenFor, answeredAt }) => {
      const { session, stub } = await loggedIn({ auto: false });
      const refreshing = session.refresh();
      await vi.advanceTimersByTimeAsync(10);
      const call = stub.last('refreshToken');
      const before = session.getState().expiresAt;
      vi.setSystemTime(Date.now() + frozenFor);
      setTimeout(() => stub.answer(call), answeredAt - 10);
      await vi.advanceTimersByTimeAsync(answeredAt - 10);
      await refreshing;

      expect(stub.of('refreshToken')).toHaveLength(1);
      expect(session.getState().status).toBe('authenticated');
      expect(session.getState().retry).toBeUndefined();
      expect(session.getState().expiresAt).toBeGreaterThan(before!);
      session.dispose();
    },
  );

  it('still gives up, a moment later, on a refresh that got no answer at all', async () => {
    const { session, stub } = await loggedIn({ auto: false });
    const refreshing = session.refresh().catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(10);
    vi.setSystemTime(Date.now() + 42_000);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(stub.of('refreshToken')).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(await refreshing).toMatchObject({
      name: 'AuthRequestError',
      message: 'refreshToken got no answer within 30000 ms.',
    });
    session.dispose();
  });
});

describe('app callbacks that throw', () => {
  it('cannot stop a rotation half way: the new pair is used and stored, and the failure goes to onError', async () => {
    const boom = new Error('listener bug');
    const { session, stub, store, onError } = await loggedIn({
      onRefresh: () => {
        throw boom;
      },
    });
    session.subscribe(() => {
      throw boom;
    });
    await session.refresh();
    expect(await store.get()).toEqual(expect.objectContaining({ refreshToken: 'refresh-p2' }));
    expect(await session.getAccessToken()).toBe((await store.get())!.accessToken);
    await session.refresh();
    expect(stub.of('refreshToken').map((call) => call.variables.token)).toEqual(['refresh-p1', 'refresh-p2']);
    expect(onError).toHaveBeenCalledWith(boom);
  });

  it('an onError that throws does not stop later store writes', async () => {
    const memory = createMemoryTokenStore();
    let failNext = true;
    const store = createTokenStore({
      get: memory.get,
      set: (pair) => (failNext ? ((failNext = false), Promise.reject(new Error('disk full'))) : memory.set(pair)),
      clear: memory.clear,
    });
    const { session } = setup({
      store,
      auto: true,
      onError: () => {
        throw new Error('logger down');
      },
    });
    await session.login('a@b.test', 'pw');
    expect(await store.get()).toBeNull();
    await session.refresh();
    expect((await store.get())!.refreshToken).toBe('refresh-p2');
    await session.logout();
    expect(await store.get()).toBeNull();
  });
});

describe('the proactive refresh, timed from the token', () => {
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

describe('an overdue refresh starts on read (issue 38: timers throttled in a hidden tab, a machine asleep)', () => {
  /** A clock whose timers never fire: a tab the browser throttles, past the proactive refresh. */
  function throttledClock() {
    let now = T0;
    const clock: Clock = { now: () => now, setTimeout: () => 0, clearTimeout: () => {} };
    return { clock, setNow: (at: number) => void (now = at) };
  }

  it('one refresh starts on the first read after refreshAt, and the operation goes out at once', async () => {
    const { clock, setNow } = throttledClock();
    const onRefresh = vi.fn();
    const { session, stub } = await loggedIn({ clock, onRefresh });
    const valid = accessTokenOf(session) as string;
    setNow(T0 + 12.5 * MINUTE - 1);
    expect(accessTokenOf(session)).toBe(valid);
    await vi.advanceTimersByTimeAsync(0);
    expect(stub.of('refreshToken')).toHaveLength(0);

    setNow(T0 + 13 * MINUTE);
    // Synchronously, with the token that is still good: no wait for the refresh it started.
    expect(accessTokenOf(session)).toBe(valid);
    expect(accessTokenOf(session)).toBe(valid);
    await vi.advanceTimersByTimeAsync(0);
    expect(stub.of('refreshToken')).toHaveLength(1);
    expect(onRefresh).toHaveBeenCalledWith(expect.objectContaining({ trigger: 'proactive', outcome: 'rotated' }));
    expect(session.getState().expiresAt).toBe(T0 + 13 * MINUTE + 15 * MINUTE);
    expect(accessTokenOf(session)).not.toBe(valid);
  });

  it('keeps the backoff: a read starts the retry of a failed refresh only once it is due', async () => {
    const { clock, setNow } = throttledClock();
    const { session, stub } = await loggedIn({ clock, retryDelay: 10_000, onError: () => {} });
    stub.auto = false;
    setNow(T0 + 13 * MINUTE);
    accessTokenOf(session);
    await vi.advanceTimersByTimeAsync(0);
    stub.last('refreshToken').fail(new TypeError('Failed to fetch'));
    await vi.advanceTimersByTimeAsync(0);
    expect(session.getState().retry).toMatchObject({ attempt: 1, at: T0 + 13 * MINUTE + 10_000 });

    setNow(T0 + 13 * MINUTE + 9_999);
    accessTokenOf(session);
    await vi.advanceTimersByTimeAsync(0);
    expect(stub.of('refreshToken')).toHaveLength(1);
    setNow(T0 + 13 * MINUTE + 10_000);
    accessTokenOf(session);
    await vi.advanceTimersByTimeAsync(0);
    expect(stub.of('refreshToken')).toHaveLength(2);
  });
});

describe('timing that could spin', () => {
  it('refreshes tokens without iat once per lifetime when the lead time exceeds it', async () => {
    const { session, stub } = setup({ auto: false, refreshLeadTime: 150_000 });
    const noIat = (n: number) => ({
      accessToken: makeJwt({ sub: 'u', exp: Math.floor(Date.now() / 1000) + 60, n }),
      refreshToken: `r${n}`,
    });
    const login = session.login('a@b.test', 'pw');
    await vi.advanceTimersByTimeAsync(0);
    stub
      .last('loginWithEmailPassword')
      .respond({ data: { loginWithEmailPassword: { ...noIat(0), user: { id: 'u' } } } });
    await login;
    for (let n = 1; n <= 3; n++) {
      await vi.advanceTimersByTimeAsync(51_000);
      expect(stub.of('refreshToken')).toHaveLength(n);
      stub.last('refreshToken').respond({ data: { refreshToken: noIat(n) } });
      await vi.advanceTimersByTimeAsync(0);
    }
    await vi.advanceTimersByTimeAsync(50_999);
    expect(stub.of('refreshToken')).toHaveLength(3);
  });

  it('keeps the retry backoff when a restored dead token cannot be refreshed', async () => {
    const dead = makePair('dead', { now: T0 - 20 * MINUTE });
    const { session, stub } = setup({ store: createMemoryTokenStore(dead), retryDelay: 1000 });
    await vi.advanceTimersByTimeAsync(0);
    stub.last('refreshToken').fail();
    await vi.advanceTimersByTimeAsync(0);
    expect(session.getState().status).toBe('authenticated');
    // A 1 s backoff, held to the 5 s floor since the failed refresh was sent.
    await vi.advanceTimersByTimeAsync(4_999);
    expect(stub.of('refreshToken')).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(stub.of('refreshToken')).toHaveLength(2);
  });
});

// The case of a retry due in more than 10 s comes from the soak (issue 30, commit 23b7a50): an operation in a tab
// whose refresh waited for a lock held by a frozen tab took up to 60 s to fail, and then joined the retry for 60 s
// more. An operation now joins a retry only while its whole wait stays within 10 s.
describe('one backoff for every trigger', () => {
  it.each(['dead by the local clock', 'answered TOKEN_EXPIRED'])(
    'sends no refresh of their own for 50 operations %s while a retry is due within 10 s: they wait for it and go on with its pair',
    async (how) => {
      const { auth, stub, server, link, token } = await loggedInLinks({ retryDelay: 1000 });
      const first = watch(auth.refresh());
      await tick();
      stub.last('refreshToken').fail();
      await tick();
      expect(AuthRequestError.is(first.error)).toBe(true);
      // The retry: a 1 s backoff held to the 5 s floor.
      expect(auth.getState().retry).toMatchObject({ at: T0 + 5_000, attempt: 1 });
      const dead = how === 'dead by the local clock';
      if (dead) vi.setSystemTime(T0 + 4_000 + 16 * MINUTE);
      else server.expired.add(token);
      const runs = Array.from({ length: 50 }, (_, i) => execute(link, { i }));
      await tick();
      // Dead by the clock, the retry is past due: the operations' one refresh is that retry, at once.
      expect(refreshCount(stub)).toBe(dead ? 2 : 1);
      for (const run of runs) expect(run).toMatchObject({ completed: false, error: undefined });
      expect(server.attempts.map((a) => a.authorization)).toEqual(dead ? [] : Array(50).fill(`Bearer ${token}`));
      if (!dead) {
        await tick(4_999);
        expect(refreshCount(stub)).toBe(1);
        await tick(1);
        expect(refreshCount(stub)).toBe(2);
      }
      const next = stub.nextPair();
      stub.last('refreshToken').respond({ data: { refreshToken: next } });
      await tick();
      expect(auth.getState().retry).toBeUndefined();
      for (const run of runs) expect(run).toMatchObject({ completed: true, error: undefined });
      expect(server.attempts.slice(dead ? 0 : 50).map((a) => a.authorization)).toEqual(
        Array(50).fill(`Bearer ${next.accessToken}`),
      );
    },
  );

  it('fails operations that need a new pair at once, with the failure the retry waits out, when the retry is due in more than 10 s', async () => {
    const { auth, stub, server, link, token } = await loggedInLinks({ retryDelay: 20_000 });
    const first = watch(auth.refresh());
    await tick();
    stub.last('refreshToken').fail();
    await tick();
    expect(AuthRequestError.is(first.error)).toBe(true);
    server.expired.add(token);
    const runs = Array.from({ length: 5 }, (_, i) => execute(link, { i }));
    await tick();
    expect(refreshCount(stub)).toBe(1);
    for (const run of runs) expect(run.error).toMatchObject({ name: 'AuthRequestError', operation: 'refreshToken' });
    await tick(20_000);
    expect(refreshCount(stub)).toBe(2);
  });

  it('retries after a full-jitter delay by default: 500 ms, not 1 s, when Math.random gives 0.5 (no floor)', async () => {
    const { auth, stub } = await loggedInLinks({ refreshFloor: 0 });
    vi.spyOn(Math, 'random').mockReturnValue(0.5);
    const first = watch(auth.refresh());
    await tick();
    stub.last('refreshToken').fail();
    await tick(499);
    expect(AuthRequestError.is(first.error)).toBe(true);
    expect(refreshCount(stub)).toBe(1);
    await tick(1);
    expect(refreshCount(stub)).toBe(2);
    stub.answer(stub.last('refreshToken'));
    await tick();
    expect(auth.getState().status).toBe('authenticated');
    expect(auth.getState().retry).toBeUndefined();
  });

  it('does not retry by timer while the resume source says offline, and retries once when it resumes', async () => {
    let online = true;
    const resumes = new Set<() => void>();
    const refreshOnResume = {
      subscribe: (resume: () => void) => (resumes.add(resume), () => void resumes.delete(resume)),
      isOnline: () => online,
    };
    const { auth, stub } = await loggedInLinks({ refreshOnResume, retryDelay: 1000 });
    const first = watch(auth.refresh());
    await tick();
    online = false;
    stub.last('refreshToken').fail();
    await tick(10 * MINUTE);
    expect(AuthRequestError.is(first.error)).toBe(true);
    expect(refreshCount(stub)).toBe(1);
    expect(auth.getState().retry).toMatchObject({ attempt: 1 });
    expect(auth.getState().retry?.at).toBeUndefined();
    online = true;
    for (const resume of resumes) resume();
    await tick();
    expect(refreshCount(stub)).toBe(2);
    stub.answer(stub.last('refreshToken'));
    await tick();
    expect(auth.getState().status).toBe('authenticated');
    expect(auth.getState().retry).toBeUndefined();
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

const ME = gql`
  query Me {
    me {
      id
    }
  }
`;

const disposals: Array<() => void> = [];
afterEach(() => {
  for (const dispose of disposals.splice(0)) dispose();
});

/** A session with default options but the clock, against the test server on the same clock. */
function rig(
  options: {
    accessTokenTtl?: number;
    auth?: Partial<TokenAuthOptions>;
    clock?: TestClock;
    server?: TestAuthServer;
  } = {},
) {
  const clock = options.clock ?? createTestClock();
  const server = options.server ?? createTestAuthServer({ clock, accessTokenTtl: options.accessTokenTtl });
  const refreshes: RefreshEvent[] = [];
  const states: TokenAuthState[] = [];
  const auth = createTokenAuth({
    uri: 'http://api.test/graphql',
    fetch: server.fetch,
    clock,
    refreshOnResume: false,
    onRefresh: (event) => refreshes.push(event),
    ...options.auth,
  });
  auth.subscribe(() => states.push(auth.getState()));
  disposals.push(() => auth.dispose());
  const client = new ApolloClient({
    link: ApolloLink.from([auth.link, new HttpLink({ uri: 'http://api.test/graphql', fetch: server.fetch })]),
    cache: new InMemoryCache(),
  });
  // How long (on the test clock) a query took to be answered, advancing 100 ms at a time.
  const timeQuery = async () => {
    let answered: unknown;
    const started = clock.now();
    void client.query({ query: ME, fetchPolicy: 'network-only' }).then(
      (result) => (answered = result),
      (error: unknown) => (answered = error),
    );
    while (answered === undefined && clock.now() - started < 30_000) await clock.advance(100);
    return { took: clock.now() - started, answered };
  };
  return { clock, server, auth, client, refreshes, states, timeQuery };
}

describe('the refresh floor slows a storm, not a user', () => {
  // Real timers: this test runs on a clock of its own.
  beforeEach(() => void vi.useRealTimers());
  it('one TOKEN_EXPIRED right after a rotation costs under 1 s', async () => {
    const { auth, server, refreshes, timeQuery } = rig();
    await auth.login('admin@demo.test', 'admin-pass');
    await auth.refresh();
    server.expireAllAccessTokens();
    const { took, answered } = await timeQuery();
    expect(answered).toMatchObject({ data: { me: { id: 'u_admin' } } });
    expect(took).toBeLessThan(1_000);
    expect(refreshes.map(({ trigger, outcome }) => `${trigger} ${outcome}`)).toEqual([
      'manual rotated',
      'token-expired rotated',
    ]);
  });

  it('one TOKEN_EXPIRED right after a restore costs under 1 s', async () => {
    const clock = createTestClock();
    const server = createTestAuthServer({ clock });
    // A stored pair whose access token died while the app was closed: the restore renews it.
    const dead = await server.issueTokens('admin@demo.test', { accessTokenTtl: 1 });
    await clock.advance(2_000);
    const { refreshes, timeQuery } = rig({ clock, server, auth: { store: createMemoryTokenStore(dead) } });
    await clock.advance(0);
    expect(refreshes.map(({ trigger }) => trigger)).toEqual(['restore']);
    server.expireAllAccessTokens();
    const { took, answered } = await timeQuery();
    expect(answered).toMatchObject({ data: { me: { id: 'u_admin' } } });
    expect(took).toBeLessThan(1_000);
  });

  it('a storm of TOKEN_EXPIRED still gets one refresh per 5 s, and the state says when the next goes', async () => {
    const { auth, server, refreshes, states, timeQuery } = rig();
    await auth.login('admin@demo.test', 'admin-pass');
    await auth.refresh();
    server.expireAllAccessTokens();
    await timeQuery();
    // Out of credit: the third refresh within a second waits for the floor, and the state shows the wait.
    server.expireAllAccessTokens();
    const { took } = await timeQuery();
    expect(took).toBeGreaterThanOrEqual(4_500);
    const waiting = states.find((state) => state.waiting);
    expect(waiting?.waiting).toMatchObject({ trigger: 'token-expired' });
    expect(auth.getState().waiting).toBeUndefined();
    expect(refreshes.filter(({ outcome }) => outcome === 'rotated')).toHaveLength(3);
  });

  it.each([3, 6, 10])(
    'renews %i-second tokens before they die, for two minutes, with no TOKEN_EXPIRED',
    async (seconds) => {
      const { clock, auth, server, refreshes, client } = rig({ accessTokenTtl: seconds });
      await auth.login('admin@demo.test', 'admin-pass');
      // A query every half second, none awaited: the clock must move for a query that waits on a timer.
      const answers: Array<Promise<unknown>> = [];
      for (let tick = 0; tick < 240; tick++) {
        answers.push(client.query({ query: ME, fetchPolicy: 'network-only' }));
        await clock.advance(500);
      }
      await clock.advance(10_000);
      expect(await Promise.all(answers)).toHaveLength(240);
      expect(server.stats.tokenExpired).toBe(0);
      expect(new Set(refreshes.map(({ trigger, outcome }) => `${trigger} ${outcome}`))).toEqual(
        new Set(['proactive rotated']),
      );
      // About one per 80 % of a life, never two within a second.
      expect(refreshes.length).toBeGreaterThanOrEqual(Math.floor(120 / seconds));
      expect(auth.getState()).toMatchObject({ status: 'authenticated' });
    },
  );
});

describe('onRefresh names the real trigger', () => {
  // Real timers: this test runs on a clock of its own.
  beforeEach(() => void vi.useRealTimers());
  it('a retry after a refresh that got no answer reports `retry`, not `proactive`', async () => {
    const { clock, auth, server, refreshes } = rig({ auth: { retryDelay: 1_000 } });
    await auth.login('admin@demo.test', 'admin-pass');
    server.faults.failNext.push({ field: 'refreshToken', status: 503, body: 'busy' });
    await clock.advanceTo(auth.getState().refreshAt!);
    await clock.advance(6_000);
    expect(refreshes.map(({ trigger, outcome }) => `${trigger} ${outcome}`)).toEqual([
      'proactive failed',
      'retry rotated',
    ]);
  });

  it('./ws asking reports `socket`, the app asking `manual`', async () => {
    const { auth, refreshes } = rig();
    await auth.login('admin@demo.test', 'admin-pass');
    await auth.refresh('socket');
    await auth.refresh();
    expect(refreshes.map(({ trigger }) => trigger)).toEqual(['socket', 'manual']);
  });
});
