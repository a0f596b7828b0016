import { afterEach, describe, expect, it, vi } from 'vitest';
import { createBroadcastTokenStore, createTokenAuth, type TokenAuth, type TokenAuthState } from '../../src';
import { createLock } from '../../src/core/environment/lock';
import { createTestAuthServer } from '../../src/testing';

// Found by the soak (npm run soak, seed 3, at 311 s): a vite-spa tab reloaded while both other tabs were frozen,
// one of them holding the refresh lock with its refresh on the wire. Nobody answered the new tab's read, and it
// showed "Signed out" for 4 s, until the frozen tab thawed and its new pair arrived.

const stores: Array<ReturnType<typeof createBroadcastTokenStore>> = [];
const sessions: TokenAuth[] = [];
const closers: Array<() => void> = [];
afterEach(() => {
  for (const close of closers.splice(0)) close();
  for (const session of sessions.splice(0)) session.dispose();
  for (const store of stores.splice(0)) store.close();
  vi.restoreAllMocks();
  vi.useRealTimers();
});

/**
 * Freezes the tab whose store posts as `from`, as a browser freezes a page: what it posts stays unsent until the
 * thaw.
 */
function freeze(from: string) {
  const post = BroadcastChannel.prototype.postMessage;
  const held: Array<[BroadcastChannel, unknown]> = [];
  const spy = vi.spyOn(BroadcastChannel.prototype, 'postMessage').mockImplementation(function (
    this: BroadcastChannel,
    message: unknown,
  ) {
    if ((message as { from: string }).from === from) held.push([this, message]);
    else post.call(this, message);
  });
  return () => {
    spy.mockRestore();
    for (const [channel, message] of held) post.call(channel, message);
  };
}

/** Tabs on one channel and one lock, as Web Locks spans an origin's tabs, and the id of the tab that submits a refresh. */
function origin() {
  const lock = createLock();
  const name = `frozen-restore-${Math.random()}`;
  const listener = new BroadcastChannel(name);
  let submitter: string | undefined;
  listener.onmessage = (event: MessageEvent<{ type: string; from: string; token: string | null }>) => {
    if (event.data.type === 'spend' && event.data.token) submitter = event.data.from;
  };
  closers.push(() => listener.close());
  return {
    open() {
      const store = createBroadcastTokenStore({ name, lock });
      stores.push(store);
      return store;
    },
    submitter: () => submitter,
  };
}

/** A fetch whose refresh answers wait for `answer()`: the request reached the API, the answer is not read yet. */
function heldRefreshes(server: ReturnType<typeof createTestAuthServer>) {
  let answer!: () => void;
  const onTheWire = new Promise<void>((resolve) => (answer = resolve));
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const refresh = String(init?.body).includes('refreshToken(');
    const response = await server.fetch(input, init);
    if (refresh) await onTheWire;
    return response;
  };
  return { fetch, answer };
}

/**
 * Tab A signed in (the contract's 15-minute access tokens), `others` more tabs following it, then A frozen with its
 * refresh on the wire: the API rotated the pair, the answer is not read yet. `thaw()` lets A's messages and the
 * answer through.
 */
async function frozenInMidRefresh(others = 0) {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  const server = createTestAuthServer({ accessTokenTtl: 900 });
  const tabs = origin();
  const held = heldRefreshes(server);
  const tab = (fetch: typeof globalThis.fetch = server.fetch) => {
    const auth = createTokenAuth({ uri: '/graphql', fetch, store: tabs.open(), refreshOnResume: false });
    sessions.push(auth);
    return auth;
  };
  const a = tab(held.fetch);
  const followers = Array.from({ length: others }, () => tab());
  const login = a.login('admin@demo.test', 'admin-pass');
  await vi.advanceTimersByTimeAsync(1000);
  await login;
  for (const each of followers) await vi.waitFor(() => expect(each.getState().status).toBe('authenticated'));
  void a.refresh().catch(() => {});
  await vi.waitFor(() => expect(server.stats.refreshCalls).toBe(1));
  await vi.waitFor(() => expect(tabs.submitter()).toBeDefined());
  const thaw = freeze(tabs.submitter()!);
  return {
    server,
    a,
    followers,
    tab,
    thaw() {
      thaw();
      held.answer();
    },
  };
}

describe('a tab that starts while the tab holding the refresh lock is frozen', () => {
  it('shows the session restoring, never signed out, and takes the pair that tab renews once it thaws', async () => {
    const { server, a, tab, thaw } = await frozenInMidRefresh();
    const c = tab();
    const seen: TokenAuthState['status'][] = [c.getState().status];
    c.subscribe(() => seen.push(c.getState().status));
    await vi.advanceTimersByTimeAsync(5000);
    expect(c.getState().status).toBe('loading');

    thaw();
    await vi.waitFor(() =>
      expect(c.getState()).toMatchObject({ status: 'authenticated', user: { email: 'admin@demo.test' } }),
    );
    expect(seen).not.toContain('unauthenticated');
    // The frozen tab's answer may come first, with the pair it renews; the pair it renewed follows.
    await vi.waitFor(async () => expect(await c.getAccessToken()).toBe(await a.getAccessToken()));
    expect(server.stats).toMatchObject({ refreshCalls: 1, reuseDetections: 0 });
  });

  it('shows the sign-in form at once after a sign-out in a tab that can answer, the frozen one holding the lock', async () => {
    const {
      followers: [d],
      tab,
      thaw,
    } = await frozenInMidRefresh(1);
    const logout = d!.logout();
    await vi.advanceTimersByTimeAsync(200);
    await logout;

    const c = tab();
    await vi.advanceTimersByTimeAsync(200);
    expect(c.getState().status).toBe('unauthenticated');
    thaw();
  });

  it('with no tab holding the lock, a first visit shows the sign-in form within 0.2 s', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const server = createTestAuthServer({ accessTokenTtl: 900 });
    const c = createTokenAuth({ uri: '/graphql', fetch: server.fetch, store: origin().open(), refreshOnResume: false });
    sessions.push(c);
    await vi.advanceTimersByTimeAsync(200);
    expect(c.getState().status).toBe('unauthenticated');
  });
});
