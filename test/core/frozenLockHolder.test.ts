import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createMemoryTokenStore, shareTokenStore, type Lock } from '../../src';
import { createTokenSession } from '../../src/core/session/TokenSession';
import { createFetchStub } from '../helpers/fetchStub';
import { TIME } from '../helpers/session';

// Found by the soak (npm run soak -- --minutes 3 --seed 3): a tab frozen while it holds the refresh lock keeps a
// sign-in in another tab from reaching the other tabs, which show the sign-in form until the lock is free (the
// login's pair is written to the shared store under the lock). Not fixed yet: `it.fails` turns red once it is.
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
