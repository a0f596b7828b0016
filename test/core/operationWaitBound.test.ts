import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AuthRequestError, type Lock } from '../../src';
import { createTokenSession, type Live } from '../../src/core/session/TokenSession';
import { accessTokenOf, TIME, twoTabs } from '../helpers/session';

// Found by the soak (npm run soak -- --minutes 30 --seed 3, at 138.7 s): an operation in one tab waited 18 s on a
// refresh queued for a lock that a frozen tab held. That tab thawed, and the operation went out with the pair it
// had renewed. But the frozen tab had read that pair 36 s late, and the API refused its access token as expired.
// The replay's refresh then queued for the lock again, behind another frozen tab: the operation was still pending
// 34 s after it began. An operation's whole wait, its replay's included, is now bounded.
beforeEach(() => {
  vi.useFakeTimers({ now: TIME.T0 });
});
afterEach(() => {
  vi.useRealTimers();
});

// `freeze()`: a tab holds the lock, or is queued first for it, and the browser froze it; `thaw()` lets it go.
async function frozenTabs() {
  let held: Promise<void> | undefined;
  const tabs = {
    thaw: () => {},
    freeze: () => void (held = new Promise<void>((resolve) => (tabs.thaw = resolve))),
  };
  const lock: Lock = async (_name, task) => {
    await held;
    return task();
  };
  return { tabs, ...(await twoTabs(lock)) };
}

/** An operation as the links run it: it waits for a pair (`current`), then its replay after TOKEN_EXPIRED (`recover`). */
function operationOf(session: ReturnType<typeof createTokenSession>) {
  const run = {
    began: Date.now(),
    sent: undefined as Live | undefined,
    ended: undefined as number | undefined,
    error: undefined as unknown,
  };
  const waited = Promise.resolve(session.current()).then((sent) => (run.sent = sent ?? undefined));
  const replayed = waited.then((sent) => session.recover(sent ?? undefined));
  void replayed.then(
    () => (run.ended = Date.now()),
    (error: unknown) => ((run.ended = Date.now()), (run.error = error)),
  );
  return run;
}

describe('an operation whose pair, followed after a long wait, is refused as expired', () => {
  it('fails within 21 s of when it began, though its replay queues for a lock that another frozen tab holds', async () => {
    const { tabs, stub, here, there } = await frozenTabs();
    tabs.freeze();
    await vi.advanceTimersByTimeAsync(15 * TIME.MINUTE + 500); // the proactive refresh waits for the lock; the token died
    const run = operationOf(here);
    await vi.advanceTimersByTimeAsync(14_000);
    expect(run.sent).toBeUndefined();

    // The other tab's pair arrives (written without the lock after 1 s), 15 s into the operation's wait; the API
    // refuses its access token (TOKEN_EXPIRED), and the replay's refresh queues for the lock still held.
    void there.login('a@b.test', 'pw');
    await vi.advanceTimersByTimeAsync(1_500);
    expect(run.sent?.pair.accessToken).toBe(await there.getAccessToken());
    expect(run.ended).toBeUndefined();

    await vi.advanceTimersByTimeAsync(21_000 - (Date.now() - run.began) - 1);
    expect(run.ended).toBeUndefined();
    await vi.advanceTimersByTimeAsync(2);
    expect(run.ended! - run.began).toBe(21_000);
    expect(AuthRequestError.is(run.error)).toBe(true);
    expect((run.error as Error).message).toBe('Waited 21 s for a new access token.');
    // Nothing was lost: the session goes on with the followed pair, and its refresh still waits for the lock.
    expect(here.getState()).toMatchObject({ status: 'authenticated' });
    expect(stub.of('refreshToken')).toHaveLength(0);

    // The frozen tab thaws: the replay's refresh, still queued, renews the pair once, and the next operation
    // goes out with it.
    tabs.thaw();
    await vi.advanceTimersByTimeAsync(100);
    expect(stub.of('refreshToken')).toHaveLength(1);
    expect(await accessTokenOf(here)).toBe(await there.getAccessToken());
    expect(await accessTokenOf(here)).not.toBe(run.sent!.pair.accessToken);
    here.dispose();
    there.dispose();
  });

  it('still replays with the pair that a refresh brings in time', async () => {
    const { tabs, stub, here, there } = await frozenTabs();
    tabs.freeze();
    await vi.advanceTimersByTimeAsync(15 * TIME.MINUTE + 500);
    const run = operationOf(here);
    await vi.advanceTimersByTimeAsync(14_000);
    void there.login('a@b.test', 'pw');
    await vi.advanceTimersByTimeAsync(1_500);
    await vi.advanceTimersByTimeAsync(3_000);
    tabs.thaw(); // 18.5 s into the operation's wait: its replay's refresh gets the lock
    await vi.advanceTimersByTimeAsync(100);

    expect(run.error).toBeUndefined();
    expect(run.ended! - run.began).toBeLessThan(21_000);
    expect(stub.of('refreshToken').length).toBeGreaterThanOrEqual(1);
    expect(here.getState()).toMatchObject({ status: 'authenticated' });
    here.dispose();
    there.dispose();
  });
});
