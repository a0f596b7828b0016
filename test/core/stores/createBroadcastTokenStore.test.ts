import { afterEach, describe, expect, it, vi } from 'vitest';
import { createBroadcastTokenStore, createTokenAuth } from '../../../src';
import { createTestAuthServer } from '../../../src/testing';
import { createLock, type Lock } from '../../../src/core/environment/lock';
import { createTokenSession } from '../../../src/core/session/TokenSession';
import { accessTokenOf } from '../../helpers/session';
import { createFetchStub } from '../../helpers/fetchStub';
import { makePair } from '../../helpers/jwt';

let channel = 0;
const stores: Array<ReturnType<typeof createBroadcastTokenStore>> = [];
afterEach(() => {
  for (const store of stores.splice(0)) store.close();
});

/** Stores that stand for tabs: one BroadcastChannel name per test, real message passing. */
function tabs(count: number, timeout = 100, lock?: Lock) {
  const name = `test-${++channel}-${Date.now()}`;
  const created = Array.from({ length: count }, () => createBroadcastTokenStore({ name, timeout, lock }));
  stores.push(...created);
  return { name, stores: created };
}

describe('createBroadcastTokenStore', () => {
  it('shares a pair written in one tab with the others, and tells their subscribers', async () => {
    const {
      stores: [a, b],
    } = tabs(2);
    const heard = vi.fn();
    b!.subscribe!(heard);
    const pair = makePair('shared');
    await a!.set(pair);
    await vi.waitFor(() => expect(heard).toHaveBeenCalled());
    expect(await b!.get()).toEqual(pair);
    await b!.clear();
    await vi.waitFor(async () => expect(await a!.get()).toBeNull());
  });

  it('hands the pair to a tab opened later', async () => {
    const {
      name,
      stores: [a],
    } = tabs(1);
    const pair = makePair('early');
    await a!.set(pair);
    const late = createBroadcastTokenStore({ name, timeout: 100 });
    stores.push(late);
    expect(await late.get()).toEqual(pair);
  });

  it('waits at most 50 ms for an answer when no other tab is known', async () => {
    const {
      stores: [alone],
    } = tabs(1, 5_000);
    let started = performance.now();
    expect(await alone!.get()).toBeNull();
    expect(performance.now() - started).toBeLessThan(500);
    // One pair: two calls of makePair straddling a second would differ in `iat`.
    const pair = makePair('x');
    await alone!.set(pair);
    started = performance.now();
    expect(await alone!.get()).toEqual(pair);
    expect(performance.now() - started).toBeLessThan(500);
  });

  it('stops waiting for a tab that said goodbye, and a closed store stays quiet', async () => {
    const {
      stores: [a, b],
    } = tabs(2, 10_000);
    await a!.get();
    await b!.get();
    b!.close();
    b!.close();
    await b!.set(makePair('after close'));
    const started = Date.now();
    expect(await a!.get()).toBeNull();
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('lets sessions in two tabs refresh once between them for 20 concurrent refreshes', async () => {
    const lock = createLock(); // what navigator.locks is across real tabs
    const {
      stores: [storeA, storeB],
    } = tabs(2, 100, lock);
    const stub = createFetchStub({ auto: true });
    const a = createTokenSession({ uri: 'http://auth.test/graphql', fetch: stub.fetch, store: storeA });
    const b = createTokenSession({ uri: 'http://auth.test/graphql', fetch: stub.fetch, store: storeB });
    await a.login('a@b.test', 'pw');
    await vi.waitFor(() => expect(b.getState().status).toBe('authenticated'));
    stub.calls.length = 0;
    await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).refresh()));
    expect(stub.of('refreshToken')).toHaveLength(1);
    expect(accessTokenOf(b)).toBe(accessTokenOf(a));
    await a.logout();
    await vi.waitFor(() => expect(b.getState().status).toBe('unauthenticated'));
    a.dispose();
    b.dispose();
  });
});

describe('createBroadcastTokenStore: why a session ended, in every tab', () => {
  it('a refresh token the service refused in one tab ends the other tabs as rejected, not as logged out elsewhere', async () => {
    const server = createTestAuthServer();
    const lock = createLock();
    const {
      stores: [storeA, storeB],
    } = tabs(2, 100, lock);
    const open = (store: ReturnType<typeof createBroadcastTokenStore>) => {
      const onSessionEnd = vi.fn();
      const auth = createTokenAuth({
        uri: '/graphql',
        fetch: server.fetch,
        store,
        refreshOnResume: false,
        onSessionEnd,
      });
      return { auth, onSessionEnd };
    };
    const a = open(storeA!);
    const b = open(storeB!);
    try {
      await a.auth.login('admin@demo.test', 'admin-pass');
      await vi.waitFor(() => expect(b.auth.getState().status).toBe('authenticated'));

      server.revokeAllSessions();
      await a.auth.refresh().catch(() => {});
      await vi.waitFor(() => expect(b.auth.getState().status).toBe('unauthenticated'));

      for (const tab of [a, b]) {
        expect(tab.auth.getState().ended).toMatchObject({ reason: 'rejected', elsewhere: false, rejection: 'revoked' });
        expect(tab.onSessionEnd).toHaveBeenCalledWith(
          expect.objectContaining({ reason: 'rejected', elsewhere: false }),
        );
      }
      expect(server.stats).toMatchObject({ refreshCalls: 1, reuseDetections: 0 });
    } finally {
      a.auth.dispose();
      b.auth.dispose();
    }
  });
});
