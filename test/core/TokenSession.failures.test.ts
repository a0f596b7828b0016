import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createMemoryTokenStore, createTokenStore, type TokenStore } from '../../src';
import { rejection } from '../helpers/fetchStub';
import { makeJwt, makePair } from '../helpers/jwt';
import { loggedIn, setup, TIME, accessTokenOf } from '../helpers/session';

const { T0, MINUTE } = TIME;

beforeEach(() => {
  vi.useFakeTimers({ now: T0 });
});
afterEach(() => {
  vi.useRealTimers();
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

describe('logout while the stored pair is restored', () => {
  it('does not end a login that completed after it', async () => {
    const dead = makePair('dead', { now: T0 - 20 * MINUTE });
    const { session, stub, store } = setup({ store: createMemoryTokenStore(dead) });
    await vi.advanceTimersByTimeAsync(0);
    expect(stub.of('refreshToken')).toHaveLength(1);
    const logout = session.logout();
    expect(session.getState().status).toBe('unauthenticated');
    stub.auto = true;
    const login = session.login('a@b.test', 'pw');
    await vi.advanceTimersByTimeAsync(0);
    // The login's pair is stored under the lock, after the refresh that holds it.
    stub.answer(stub.last('refreshToken'));
    await login;
    await logout;
    expect(session.getState().status).toBe('authenticated');
    // The login got p1; the restored session's rotation, answered later, got p2, and p2 is what is revoked.
    expect(stub.last('logout').variables.refreshToken).toBe('refresh-p2');
    expect((await store.get())!.refreshToken).toBe('refresh-p1');
  });

  it('revokes the stored pair when the store is still being read', async () => {
    let answer!: (pair: unknown) => void;
    const stored = makePair('stored');
    const slow = new Promise((r) => (answer = r));
    const store = createTokenStore({ get: () => slow as never, set: vi.fn(), clear: vi.fn() });
    const { session, stub } = setup({ store, auto: true });
    const logout = session.logout();
    answer(stored);
    await logout;
    expect(stub.last('logout').variables.refreshToken).toBe(stored.refreshToken);
    expect(session.getState().status).toBe('unauthenticated');
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

describe('logout while a refresh is storing its pair', () => {
  it('fails the waiters with SessionEndedError and keeps the store empty', async () => {
    let release!: () => void;
    let pair: unknown = null;
    const store = createTokenStore({
      get: () => pair as never,
      set: (next) =>
        new Promise<void>(
          (r) =>
            (release = () => {
              pair = next;
              r();
            }),
        ),
      clear: () => {
        pair = null;
      },
    });
    const { session, stub } = setup({ store, auto: true });
    const login = session.login('a@b.test', 'pw');
    await vi.advanceTimersByTimeAsync(0);
    release();
    await login;
    const waiter = session.refresh().catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(0);
    expect(stub.of('refreshToken')).toHaveLength(1);
    const logout = session.logout();
    expect(session.getState().status).toBe('unauthenticated');
    release();
    await logout;
    expect(await waiter).toMatchObject({ name: 'SessionEndedError', reason: 'logout' });
    await vi.advanceTimersByTimeAsync(0);
    expect(pair).toBeNull();
    expect(accessTokenOf(session)).toBeNull();
  });

  it('rejects a refresh after a rejection with no second request', async () => {
    const { session, stub } = await loggedIn({ auto: false });
    const first = session.refresh().catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(0);
    stub.last('refreshToken').respond(rejection('INVALID_REFRESH_TOKEN'));
    await first;
    expect(await session.refresh().catch((e: unknown) => e)).toMatchObject({ reason: 'no-session' });
    expect(stub.of('refreshToken')).toHaveLength(1);
  });
});
