import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Lock } from '../../src';
import { accessTokenOf, TIME, twoTabs } from '../helpers/session';

// Found by the soak (npm run soak -- --minutes 11 --seed 3, at 136 s): an operation in one tab waited on that
// tab's refresh, queued for a lock that a frozen tab held. Another tab's pair arrived and the tab showed it, yet
// the operation went on waiting for the lock, up to 20 s, before it went out with that pair.
beforeEach(() => {
  vi.useFakeTimers({ now: TIME.T0 });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('an operation waiting on a refresh that waits for a lock', () => {
  it('goes out with the pair its session follows meanwhile, at once', async () => {
    let frozen = false; // a tab holds the lock and the browser froze it
    const lock: Lock = (_name, task) => (frozen ? new Promise(() => {}) : task());
    // The contract's 15-minute access tokens.
    const { stub, here, there } = await twoTabs(lock);
    const first = await accessTokenOf(here);

    frozen = true;
    await vi.advanceTimersByTimeAsync(15 * TIME.MINUTE + 500); // the proactive refresh waits for the lock; the token died
    let sent: string | null | undefined;
    void Promise.resolve(accessTokenOf(here)).then((token) => (sent = token));
    await vi.advanceTimersByTimeAsync(10);
    expect(sent).toBeUndefined();

    void there.login('a@b.test', 'pw'); // written without the lock after 1 s: the frozen tab must not keep it out
    await vi.advanceTimersByTimeAsync(1500);
    const followed = here.getState();
    expect(followed.status).toBe('authenticated');
    expect(sent).toBeTypeOf('string');
    expect(sent).not.toBe(first);
    expect(sent).toBe(await there.getAccessToken());
    expect(stub.of('refreshToken')).toHaveLength(0);
    here.dispose();
    there.dispose();
  });
});
