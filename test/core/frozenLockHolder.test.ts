import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createMemoryTokenStore, shareTokenStore, type Lock } from '../../src';
import { createTokenSession } from '../../src/core/session/TokenSession';
import { createFetchStub } from '../helpers/fetchStub';
import { TIME } from '../helpers/session';

// Found by the soak (npm run soak -- --minutes 3 --seed 3), with a tab frozen while it holds the refresh lock:
// - a sign-in in another tab did not reach the other tabs, which showed the sign-in form until the lock was free
//   (the login's pair was written to the shared store under the lock);
// - a tab that signed out and in again while its own refresh waited for that lock revoked its new session: the
//   refresh, granted the lock at last, adopted the new login's pair as the old session's newest, and the logout
//   revoked that.
beforeEach(() => {
  vi.useFakeTimers({ now: TIME.T0 });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('a session holding the refresh lock, frozen', () => {
  it('does not keep a sign-in in one session from the others sharing the store for more than 2 s', async () => {
    let frozen = false; // a tab holds the lock and the browser froze it
    const lock: Lock = (_name, task) => (frozen ? new Promise(() => {}) : task());
    const store = shareTokenStore(createMemoryTokenStore(), { lock });
    const stub = createFetchStub({ auto: true });
    const here = createTokenSession({ uri: 'http://auth.test/graphql', fetch: stub.fetch, store });
    const there = createTokenSession({ uri: 'http://auth.test/graphql', fetch: stub.fetch, store });
    await here.login('a@b.test', 'pw');
    await vi.advanceTimersByTimeAsync(10);
    expect(there.getState().status).toBe('authenticated');

    frozen = true;
    await here.logout();
    await vi.advanceTimersByTimeAsync(10);
    expect(there.getState().status).toBe('unauthenticated'); // a sign-out is followed at once, lock or not
    void here.login('a@b.test', 'pw').catch(() => {});
    await vi.advanceTimersByTimeAsync(2000);
    expect(here.getState().status).toBe('authenticated');
    expect(there.getState().status).toBe('authenticated');
    here.dispose();
    there.dispose();
  });
});

describe('a session that signs out and in while its refresh waits for a lock held by a frozen session', () => {
  it("does not revoke the new login's pair when that refresh, granted the lock at last, finds it in the store", async () => {
    const store = shareTokenStore(createMemoryTokenStore());
    const stub = createFetchStub({ auto: true });
    const frozen = createTokenSession({ uri: 'http://auth.test/graphql', fetch: stub.fetch, store });
    const here = createTokenSession({ uri: 'http://auth.test/graphql', fetch: stub.fetch, store });
    await here.login('a@b.test', 'pw');
    await vi.advanceTimersByTimeAsync(10);
    stub.auto = false;
    void frozen.refresh().catch(() => {}); // sent, and the tab froze before the answer: it holds the lock
    await vi.advanceTimersByTimeAsync(10);
    const held = stub.last('refreshToken');
    void here.refresh().catch(() => {}); // waits for the lock
    await vi.advanceTimersByTimeAsync(10);
    expect(stub.of('refreshToken')).toHaveLength(1);

    stub.auto = true;
    void here.logout(); // revokes the session's newest pair once its refresh has settled
    const signIn = here.login('a@b.test', 'pw');
    await vi.advanceTimersByTimeAsync(2000);
    await signIn;
    const signedIn = (await store.get())!;
    stub.answer(held); // the frozen tab thaws: its answer comes, and its pair, which nobody holds, is revoked
    await vi.advanceTimersByTimeAsync(5000);

    expect(stub.of('logout').map((call) => call.variables['refreshToken'])).not.toContain(signedIn.refreshToken);
    expect(here.getState().status).toBe('authenticated');
    await here.refresh();
    expect(stub.last('refreshToken').variables['token']).toBe(signedIn.refreshToken);
    here.dispose();
    frozen.dispose();
  });
});
