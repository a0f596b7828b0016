import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SessionEndedError } from '../../../src';
import { accessTokenOf, loggedIn, TIME } from '../../helpers/session';

beforeEach(() => {
  vi.useFakeTimers({ now: TIME.T0 });
});
afterEach(() => {
  vi.useRealTimers();
});

// The end of a session releases every wait, as a login that replaces it and dispose() do: a caller of refresh()
// and an operation waiting on the ended session's refresh settle at once, not when that refresh comes back.
describe("the end of a session ends every wait on its refresh (the contract's 15-minute tokens)", () => {
  it('a refresh() caller fails at once with SessionEndedError("logout") when the session is logged out', async () => {
    const { session, stub } = await loggedIn({ auto: false, lifetimeSeconds: 900 });
    let settled: unknown;
    const refreshing = session.refresh().catch((error: unknown) => (settled = error));
    await vi.advanceTimersByTimeAsync(0);
    expect(stub.of('refreshToken')).toHaveLength(1);
    const loggingOut = session.logout();
    await vi.advanceTimersByTimeAsync(0);
    // The refresh is still on the wire: its answer has not come.
    expect(stub.last('refreshToken').settled).toBe(false);
    expect(SessionEndedError.is(settled) && settled.reason).toBe('logout');
    stub.answer(stub.last('refreshToken'));
    await vi.advanceTimersByTimeAsync(0);
    stub.answer(stub.last('logout'));
    await loggingOut;
    await refreshing;
    // The logout revoked the pair the refresh brought, the newest.
    expect(stub.last('logout').variables.refreshToken).toBe('refresh-p2');
  });

  it('an operation whose token died waits on the refresh, and fails at once when the session is logged out', async () => {
    const { session, stub } = await loggedIn({ auto: false, lifetimeSeconds: 900 });
    vi.setSystemTime(TIME.T0 + 15 * TIME.MINUTE);
    let settled: unknown;
    const operation = Promise.resolve(accessTokenOf(session)).catch((error: unknown) => (settled = error));
    await vi.advanceTimersByTimeAsync(0);
    expect(stub.of('refreshToken')).toHaveLength(1);
    void session.logout();
    await vi.advanceTimersByTimeAsync(0);
    expect(stub.last('refreshToken').settled).toBe(false);
    expect(SessionEndedError.is(settled) && settled.reason).toBe('logout');
    stub.answer(stub.last('refreshToken'));
    await operation;
  });
});
