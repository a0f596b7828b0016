import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { accessTokenOf, loggedIn, TIME } from '../helpers/session';

beforeEach(() => {
  vi.useFakeTimers({ now: TIME.T0 });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('an operation that joins the retry of a refresh that failed', () => {
  it('settles when the retry does: its wait is counted from when it began, not again from the failure', async () => {
    const { session, stub } = await loggedIn({ auto: false, retryDelay: 5_000 });
    vi.setSystemTime(TIME.T0 + 16 * TIME.MINUTE); // the access token is dead
    let token: string | null | undefined;
    void Promise.resolve(accessTokenOf(session)).then((value) => (token = value));
    await vi.advanceTimersByTimeAsync(4_000);
    stub.last('refreshToken').fail(); // after 4 s; the retry is due 5 s later, 9 s into the operation's wait
    stub.auto = true;
    await vi.advanceTimersByTimeAsync(5_100);

    expect(stub.of('refreshToken')).toHaveLength(2);
    expect(session.getState().status).toBe('authenticated');
    expect(token).toBe(await accessTokenOf(session));
    session.dispose();
  });
});
