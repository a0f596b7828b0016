import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createMemoryTokenStore, shareTokenStore, type Lock } from '../../../src';
import { createTokenSession } from '../../../src/core/session/TokenSession';
import { createFetchStub } from '../../helpers/fetchStub';
import { TIME } from '../../helpers/session';

beforeEach(() => {
  vi.useFakeTimers({ now: TIME.T0 });
});
afterEach(() => {
  vi.useRealTimers();
});

// A lock that another session holds for good (a tab frozen while it held it).
const heldForGood: Lock = () => new Promise(() => {});

async function operationBehindHeldLock(lockTimeout?: number) {
  const stub = createFetchStub({ auto: true, lifetimeSeconds: 900 });
  const store = shareTokenStore(createMemoryTokenStore(), { lock: heldForGood, ...(lockTimeout && { lockTimeout }) });
  const session = createTokenSession({
    uri: 'http://auth.test/graphql',
    fetch: stub.fetch,
    store,
    refreshOnResume: false,
  });
  // The login's write waits for the lock a while, then lands without it.
  const login = session.login('a@b.test', 'pw');
  await vi.advanceTimersByTimeAsync(10_000);
  await login;
  // The contract's 15-minute token dies; the proactive refresh is queued for the lock.
  await vi.advanceTimersByTimeAsync(15 * TIME.MINUTE);
  const began = Date.now();
  const outcome = { ms: undefined as number | undefined, error: undefined as unknown };
  Promise.resolve(session.current()).then(
    () => (outcome.ms = Date.now() - began),
    (error: unknown) => ((outcome.ms = Date.now() - began), (outcome.error = error)),
  );
  await vi.advanceTimersByTimeAsync(120_000);
  session.dispose();
  return { ...outcome, refreshes: stub.of('refreshToken').length };
}

describe("an operation's wait follows the lock wait the app configured", () => {
  it('with lockTimeout: 60_000 an operation waits for the lock, and fails with its words, not after 21 s', async () => {
    const { ms, error, refreshes } = await operationBehindHeldLock(60_000);
    expect(ms).toBeGreaterThan(21_000);
    expect(ms).toBeLessThanOrEqual(61_000);
    expect((error as Error).message).toMatch(/lock/);
    expect(refreshes).toBe(0);
  });

  it('with the default lock wait, the operation gives up a second after it, at most 21 s', async () => {
    const { ms, error } = await operationBehindHeldLock();
    expect(ms).toBeLessThanOrEqual(21_000);
    expect(error).toBeInstanceOf(Error);
  });
});
