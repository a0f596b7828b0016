import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTokenStore, type TokenPair } from '../../src';
import { makePair } from '../helpers/jwt';
import { setup, TIME } from '../helpers/session';

// Found while writing the test of a tab reloaded mid-refresh: a login made while the store was still being read at
// start (a slow store, or the broadcast store asking the other tabs) revoked its own new pair when the read came
// back with it, and the next refresh was refused.
beforeEach(() => {
  vi.useFakeTimers({ now: TIME.T0 });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('a login while the stored pair is still being read', () => {
  it.each([
    ['keeps the pair it brought when the read answers with it', false],
    ['revokes the stored pair of the session it replaced, once the read answers with that', true],
  ])('%s', async (_, restoredOld) => {
    const old = makePair('old');
    let stored: TokenPair | null = null;
    let answer!: () => void;
    const store = createTokenStore({
      // Answers once the test says so, with what the store holds then: the login's pair, written meanwhile.
      get: () => new Promise<TokenPair | null>((resolve) => (answer = () => resolve(stored))),
      set: (pair) => void (stored = pair),
      clear: () => void (stored = null),
    });
    const { session, stub } = setup({ store, auto: true });
    await session.login('a@b.test', 'pw');
    const brought = stored!;
    expect(brought).not.toBeNull();
    if (restoredOld) stored = old;
    answer();
    await vi.advanceTimersByTimeAsync(10);

    expect(stub.of('logout').map((call) => call.variables['refreshToken'])).toEqual(
      restoredOld ? [old.refreshToken] : [],
    );
    stored = brought;
    expect(session.getState().status).toBe('authenticated');
    await session.refresh();
    expect(stub.of('refreshToken')).toHaveLength(1);
    session.dispose();
  });
});
