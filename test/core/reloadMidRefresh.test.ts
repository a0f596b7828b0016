import { afterEach, describe, expect, it, vi } from 'vitest';
import { createBroadcastTokenStore, createTokenAuth, type TokenAuth } from '../../src';
import { createLock, type Lock } from '../../src/core/environment/lock';
import { createTestAuthServer } from '../../src/testing';

// Found by the soak (npm run soak, seed 3, vite-spa with the broadcast store and the API slowed): a tab reloaded
// while its refresh was on the wire. The API had rotated the pair, the answer died with the page, Web Locks let
// the lock go, and the next tab to refresh submitted the spent token: reuse, and the API revoked the session.

const stores: Array<ReturnType<typeof createBroadcastTokenStore>> = [];
const sessions: TokenAuth[] = [];
afterEach(() => {
  for (const session of sessions.splice(0)) session.dispose();
  for (const store of stores.splice(0)) store.close();
});

let channel = 0;

/**
 * One lock across the tabs, as Web Locks is, and a tab that can die: its held lock is let go then (the browser
 * releases a document's locks when it unloads), and its BroadcastChannel falls silent without a goodbye.
 */
function tabsOnOneLock() {
  const shared = createLock();
  const name = `reload-${++channel}-${Date.now()}`;
  return () => {
    let die!: () => void;
    const dead = new Promise<never>((_, reject) => (die = () => reject(new Error('the page unloaded'))));
    dead.catch(() => {});
    const lock: Lock = (lockName, task, signal) => shared(lockName, () => Promise.race([task(), dead]), signal);
    const store = createBroadcastTokenStore({ name, timeout: 100, lock });
    stores.push(store);
    return { store, die };
  };
}

describe('a tab that reloads while its refresh is on the wire', () => {
  it('leaves the spent token unsubmitted: the next tab to refresh ends the session as rejected, with no reuse', async () => {
    const server = createTestAuthServer();
    const tab = tabsOnOneLock();
    const a = tab();
    const b = tab();
    let unloaded = false;
    // Tab A's requests reach the API; once it has unloaded, no answer reaches its page.
    const fetchOfA: typeof fetch = async (input, init) => {
      const answer = await server.fetch(input, init);
      return unloaded ? new Promise<never>(() => {}) : answer;
    };
    const authA = createTokenAuth({ uri: '/graphql', fetch: fetchOfA, store: a.store, refreshOnResume: false });
    const authB = createTokenAuth({ uri: '/graphql', fetch: server.fetch, store: b.store, refreshOnResume: false });
    sessions.push(authA, authB);
    await authA.login('admin@demo.test', 'admin-pass');
    await vi.waitFor(() => expect(authB.getState().status).toBe('authenticated'));

    unloaded = true;
    void authA.refresh().catch(() => {});
    await vi.waitFor(() => expect(server.stats.refreshCalls).toBe(1)); // the API rotated the pair
    a.die();

    await expect(authB.refresh()).rejects.toMatchObject({ name: 'SessionEndedError', reason: 'rejected' });
    expect(server.stats).toMatchObject({ refreshCalls: 1, reuseDetections: 0 });
    expect(authB.getState()).toMatchObject({
      status: 'unauthenticated',
      ended: { reason: 'rejected', elsewhere: false },
    });
  });

  it('a refresh that ended before the tab went (answered, or failed on the network) is no reason to end anything', async () => {
    const server = createTestAuthServer();
    const tab = tabsOnOneLock();
    const a = tab();
    const b = tab();
    let offline = false;
    const fetchOfA: typeof fetch = (input, init) =>
      offline ? Promise.reject(new TypeError('Failed to fetch')) : server.fetch(input, init);
    const authA = createTokenAuth({ uri: '/graphql', fetch: fetchOfA, store: a.store, refreshOnResume: false });
    const authB = createTokenAuth({ uri: '/graphql', fetch: server.fetch, store: b.store, refreshOnResume: false });
    sessions.push(authA, authB);
    await authA.login('admin@demo.test', 'admin-pass');
    await vi.waitFor(() => expect(authB.getState().status).toBe('authenticated'));

    await authA.refresh();
    const renewed = await authA.getAccessToken();
    await vi.waitFor(async () => expect(await authB.getAccessToken()).toBe(renewed)); // B holds the pair A renewed
    offline = true;
    await authA.refresh().catch(() => {});
    a.die();

    await authB.refresh();
    expect(authB.getState().status).toBe('authenticated');
    expect(server.stats).toMatchObject({ refreshCalls: 2, reuseDetections: 0 });
  });
});
