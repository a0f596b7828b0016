// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { loggedIn, TIME } from '../helpers/session';

const { T0, MINUTE } = TIME;

beforeEach(() => {
  vi.useFakeTimers({ now: T0 });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('refresh on resume', () => {
  it.each(['focus', 'online', 'visibilitychange'])('refreshes on %s once the proactive refresh is due, not before', async (event) => {
    const onRefresh = vi.fn();
    const { session, stub } = await loggedIn({ onRefresh });
    const fire = () => (event === 'visibilitychange' ? document : window).dispatchEvent(new Event(event));
    // Only the wall clock moves, as in a throttled background tab: the proactive timer does not run.
    vi.setSystemTime(T0 + 5 * MINUTE);
    fire();
    await Promise.resolve();
    expect(stub.of('refreshToken')).toHaveLength(0);
    vi.setSystemTime(T0 + 13 * MINUTE);
    fire();
    fire();
    await vi.waitFor(() => expect(onRefresh).toHaveBeenCalledWith({ trigger: 'resume', outcome: 'rotated' }));
    expect(stub.of('refreshToken')).toHaveLength(1);
    session.dispose();
    vi.setSystemTime(T0 + 40 * MINUTE);
    fire();
    await Promise.resolve();
    expect(stub.of('refreshToken')).toHaveLength(1);
  });
});
