import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createMemoryTokenStore, shareTokenStore, createTokenStore, type TokenStore } from '../../src';
import { createLock } from '../../src/core/environment/lock';
import { createTokenSession } from '../../src/core/session/TokenSession';
import { createFetchStub, rejection } from '../helpers/fetchStub';
import { TIME, accessTokenOf } from '../helpers/session';

const { T0 } = TIME;

beforeEach(() => {
  vi.useFakeTimers({ now: T0 });
});
afterEach(() => {
  vi.useRealTimers();
});

/**
 * Two sessions on one shared store (and so one lock), each with its own view of the same fake server; with
 * `lockB`, B shares the same plain store through a wrapper of its own, as a misconfigured process would.
 */
async function twoSessions(options: { store?: TokenStore; lockB?: ReturnType<typeof createLock> } = {}) {
  const stub = createFetchStub({ auto: true });
  const plain = options.store ?? createMemoryTokenStore();
  const store = shareTokenStore(plain);
  const onRefreshA = vi.fn();
  const onRefreshB = vi.fn();
  const a = createTokenSession({ uri: 'http://auth.test/graphql', fetch: stub.fetch, store, onRefresh: onRefreshA });
  const storeB = options.lockB ? shareTokenStore({ ...plain }, { lock: options.lockB }) : store;
  const b = createTokenSession({
    uri: 'http://auth.test/graphql',
    fetch: stub.fetch,
    store: storeB,
    onRefresh: onRefreshB,
  });
  await vi.advanceTimersByTimeAsync(0);
  await a.login('a@b.test', 'pw');
  await vi.advanceTimersByTimeAsync(0);
  stub.calls.length = 0;
  return { a, b, stub, store, onRefreshA, onRefreshB };
}

/** B's refresh is out and holds the lock; A logs in as another user, and its login has been answered. */
async function loginWhileTheOtherRefreshes() {
  const sessions = await twoSessions();
  const { a, b, stub } = sessions;
  stub.auto = false;
  const refreshB = b.refresh();
  await vi.advanceTimersByTimeAsync(0);
  const login = a.login('c@d.test', 'pw');
  await vi.advanceTimersByTimeAsync(0);
  const fresh = stub.nextPair();
  stub
    .last('loginWithEmailPassword')
    .respond({
      data: { loginWithEmailPassword: { ...fresh, user: { id: 'u_2', email: 'c@d.test', role: 'Cashier' } } },
    });
  return { ...sessions, refreshB, login, fresh };
}

describe('sessions that share a store', () => {
  it('follow a login made by the other', async () => {
    const { a, b } = await twoSessions();
    expect(b.getState()).toMatchObject({ status: 'authenticated', user: { id: 'u_1', role: 'ADMIN' } });
    expect(await b.getAccessToken()).toBe(await a.getAccessToken());
  });

  it('spend the refresh token once between them and the second adopts the new pair', async () => {
    const { a, b, stub, onRefreshB } = await twoSessions();
    await Promise.all([a.refresh(), b.refresh(), a.refresh(), b.refresh()]);
    expect(stub.of('refreshToken')).toHaveLength(1);
    expect(await b.getAccessToken()).toBe(await a.getAccessToken());
    expect(onRefreshB).toHaveBeenCalledWith({ trigger: 'manual', outcome: 'adopted' });
  });

  it('follow a refresh made by the other at once, header and timer included', async () => {
    const { a, b, stub } = await twoSessions();
    await a.refresh();
    await vi.advanceTimersByTimeAsync(0);
    expect(accessTokenOf(b)).toBe(accessTokenOf(a));
    expect(b.getState().refreshAt).toBe(a.getState().refreshAt);
    expect(stub.of('refreshToken')).toHaveLength(1);
  });

  it('end together when one logs out', async () => {
    const { a, b } = await twoSessions();
    await a.logout();
    await vi.advanceTimersByTimeAsync(0);
    expect(b.getState().status).toBe('unauthenticated');
    expect(accessTokenOf(b)).toBeNull();
  });

  it('end a refresh waiting for the lock when the other logged out meanwhile, without a request', async () => {
    const { a, b, stub } = await twoSessions();
    stub.auto = false;
    const refreshA = a.refresh();
    const refreshB = b.refresh().catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(0);
    expect(stub.of('refreshToken')).toHaveLength(1);
    const logout = a.logout();
    stub.answer(stub.last('refreshToken'));
    await refreshA.catch(() => {});
    await vi.advanceTimersByTimeAsync(0);
    stub.answer(stub.last('logout'));
    await logout;
    expect(await refreshB).toMatchObject({ name: 'SessionEndedError', reason: 'logout' });
    expect(stub.of('refreshToken')).toHaveLength(1);
    expect(b.getState().status).toBe('unauthenticated');
  });

  it('adopt the winner after a reuse rejection when they do not share a lock', async () => {
    const { a, b, stub } = await twoSessions({ lockB: createLock() });
    stub.auto = false;
    const refreshA = a.refresh();
    const refreshB = b.refresh();
    await vi.advanceTimersByTimeAsync(0);
    const [first, second] = stub.of('refreshToken');
    expect(second!.variables).toEqual(first!.variables);
    stub.answer(first!);
    await refreshA;
    second!.respond(rejection('INVALID_REFRESH_TOKEN', 'Refresh token already used'));
    await refreshB;
    expect(b.getState().status).toBe('authenticated');
    expect(accessTokenOf(b)).toBe(accessTokenOf(a));
  });

  it('never adopt a pair they have spent, even when the store still holds it', async () => {
    let failWrites = false;
    const memory = createMemoryTokenStore();
    const store = createTokenStore({
      get: memory.get,
      set: (pair) => (failWrites ? Promise.reject(new Error('write failed')) : memory.set(pair)),
      clear: memory.clear,
    });
    const stub = createFetchStub({ auto: true });
    const session = createTokenSession({ uri: 'http://auth.test/graphql', fetch: stub.fetch, store });
    await session.login('a@b.test', 'pw');
    failWrites = true;
    await session.refresh();
    expect((await store.get())!.refreshToken).toBe('refresh-p1');
    await session.refresh();
    expect(stub.of('refreshToken').map((call) => call.variables.token)).toEqual(['refresh-p1', 'refresh-p2']);
  });
});

describe('sessions that share a store, racing', () => {
  it('a logout in one while the other refreshes revives neither, and revokes the newest pair', async () => {
    const { a, b, stub, store } = await twoSessions();
    stub.auto = false;
    const refreshB = b.refresh().catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(0);
    expect(stub.of('refreshToken')).toHaveLength(1);
    const logout = a.logout();
    expect(a.getState().status).toBe('unauthenticated');
    // B follows the logout at once, not after its refresh: none of its operations goes out with the old token.
    await vi.advanceTimersByTimeAsync(0);
    expect(accessTokenOf(b)).toBeNull();
    const waited = refreshB;
    const rotated = stub.nextPair();
    stub.last('refreshToken').respond({ data: { refreshToken: rotated } });
    await vi.advanceTimersByTimeAsync(0);
    for (const call of stub.of('logout')) stub.answer(call);
    await logout;
    await refreshB;
    await vi.advanceTimersByTimeAsync(0);
    expect(await waited).toMatchObject({ name: 'SessionEndedError' });
    // The pair B's refresh brought belongs to nobody: it is revoked, and never stored.
    expect(stub.of('logout').map((call) => call.variables.refreshToken)).toContain(rotated.refreshToken);
    expect(a.getState().status).toBe('unauthenticated');
    expect(b.getState().status).toBe('unauthenticated');
    expect(await store.get()).toBeNull();
  });

  it('a login in one while the other refreshes is not overwritten: both end on the new login', async () => {
    const { a, b, stub, store, refreshB, login, fresh } = await loginWhileTheOtherRefreshes();
    stub.answer(stub.last('refreshToken'));
    await Promise.all([login, refreshB]);
    await vi.advanceTimersByTimeAsync(0);
    expect((await store.get())!.refreshToken).toBe(fresh.refreshToken);
    expect(accessTokenOf(a)).toBe(fresh.accessToken);
    expect(accessTokenOf(b)).toBe(fresh.accessToken);
  });

  it('a session that follows a logout does not clear a newer login from the store', async () => {
    const memory = createMemoryTokenStore();
    const writes: string[] = [];
    const store = createTokenStore({
      get: () => {
        const value = memory.get();
        return new Promise((resolve) => setTimeout(() => resolve(value), 5));
      },
      set: (pair) => (writes.push(`set ${pair.refreshToken}`), memory.set(pair)),
      clear: () => (writes.push('clear'), memory.clear()),
      subscribe: memory.subscribe,
    });
    const { a, b } = await twoSessions({ store });
    await vi.advanceTimersByTimeAsync(20);
    writes.length = 0;
    const logout = a.logout();
    await vi.advanceTimersByTimeAsync(50);
    await logout;
    const relogin = a.login('a@b.test', 'pw');
    await vi.advanceTimersByTimeAsync(100);
    await relogin;
    await vi.advanceTimersByTimeAsync(100);
    expect(writes).toEqual(['clear', 'set refresh-p2']);
    expect(a.getState().status).toBe('authenticated');
    expect(b.getState().status).toBe('authenticated');
    expect(accessTokenOf(b)).toBe(accessTokenOf(a));
  });

  it('a change made while a session restores is followed once the restore is done', async () => {
    const memory = createMemoryTokenStore();
    const stub = createFetchStub({ auto: true });
    let slow = true;
    const store = createTokenStore({
      get: () => {
        const value = memory.get();
        return slow ? new Promise((resolve) => setTimeout(() => resolve(value), 50)) : value;
      },
      set: memory.set,
      clear: memory.clear,
      subscribe: memory.subscribe,
    });
    const shared = shareTokenStore(store);
    const restoring = createTokenSession({ uri: 'http://auth.test/graphql', fetch: stub.fetch, store: shared });
    slow = false;
    const other = createTokenSession({ uri: 'http://auth.test/graphql', fetch: stub.fetch, store: shared });
    await other.login('a@b.test', 'pw');
    await vi.advanceTimersByTimeAsync(100);
    expect(restoring.getState().status).toBe('authenticated');
    expect(accessTokenOf(restoring)).toBe(accessTokenOf(other));
  });
});

describe('a login and a logout in two sessions at once', () => {
  it('a logout that did not know of a new login ends the old session only: both follow the new login', async () => {
    const { a, b, stub, store, refreshB, login, fresh } = await loginWhileTheOtherRefreshes();
    await vi.advanceTimersByTimeAsync(0);
    const logout = b.logout();
    stub.auto = true;
    stub.answer(stub.of('refreshToken')[0]!);
    await Promise.all([refreshB.catch(() => {}), logout, login]);
    await vi.advanceTimersByTimeAsync(0);
    expect((await store.get())!.refreshToken).toBe(fresh.refreshToken);
    expect(accessTokenOf(a)).toBe(fresh.accessToken);
    expect(accessTokenOf(b)).toBe(fresh.accessToken);
    expect(stub.of('logout').map((call) => call.variables.refreshToken)).not.toContain(fresh.refreshToken);
  });
});
