import { describe, expect, it, vi } from 'vitest';
import { createTokenStore } from '../../../src';
import { setup, useTestClock } from '../../helpers/session';

// The session's writes to its store: in session order, and a store that fails to write does not end the session.

useTestClock();

describe('writes to the store', () => {
  it('writes an async store in session order, so a slow write never lands after logout', async () => {
    const writes: string[] = [];
    let pair: unknown = null;
    const store = createTokenStore({
      get: () => pair as never,
      set: async (next) => {
        await new Promise((r) => setTimeout(r, 50));
        pair = next;
        writes.push(`set ${next.refreshToken}`);
      },
      clear: async () => {
        pair = null;
        writes.push('clear');
      },
    });
    const { session } = setup({ store, auto: true });
    const login = session.login('a@b.test', 'pw');
    await vi.advanceTimersByTimeAsync(1);
    const logout = session.logout();
    await vi.advanceTimersByTimeAsync(100);
    await Promise.all([login, logout]);
    expect(writes).toEqual(['set refresh-p1', 'clear']);
    expect(pair).toBeNull();
  });

  it('reports a store that fails to write to onError and keeps the session in memory', async () => {
    const store = createTokenStore({
      get: () => null,
      set: () => Promise.reject(new Error('disk full')),
      clear: () => {},
    });
    const { session, onError } = setup({ store, auto: true });
    await session.login('a@b.test', 'pw');
    expect(session.getState().status).toBe('authenticated');
    expect(onError).toHaveBeenCalledWith(new Error('disk full'));
  });
});
