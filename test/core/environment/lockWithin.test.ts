import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AuthRequestError, createMemoryTokenStore, shareTokenStore } from '../../../src';
import { systemClock } from '../../../src/core/environment/Clock';
import type { Lock } from '../../../src/core/environment/lock';
import { lockWithin } from '../../../src/core/environment/lockWithin';
import { createTokenSession } from '../../../src/core/session/createTokenSession';
import { createFetchStub } from '../../helpers/fetchStub';
import { TIME } from '../../helpers/session';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

// A lock that grants only when the test calls grant(); the signal it was handed is kept.
function heldLock() {
  let signal: AbortSignal | undefined;
  let grant!: () => Promise<unknown>;
  const lock: Lock = (_name, task, aborted) => {
    signal = aborted;
    return new Promise((resolve, reject) => {
      grant = () => task().then(resolve, reject);
    });
  };
  return { lock, grant: () => grant(), signal: () => signal! };
}

describe('lockWithin', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: TIME.T0 });
  });

  it('runs the task once the lock is granted in time, and tells a grant that took 50 ms or more', async () => {
    const held = heldLock();
    const emit = vi.fn();
    const task = vi.fn(async () => 'done');
    const result = lockWithin(held.lock, 'x', { clock: systemClock, emit }, new AbortController().signal)(task, 1_000);
    await vi.advanceTimersByTimeAsync(999);
    expect(task).not.toHaveBeenCalled();
    await held.grant();
    expect(await result).toBe('done');
    expect(emit).toHaveBeenCalledWith({ type: 'lock', ms: 999 });
    expect(held.signal().aborted).toBe(false);
  });

  it('does not tell a grant that took under 50 ms: the lock was free', async () => {
    const held = heldLock();
    const emit = vi.fn();
    const result = lockWithin(
      held.lock,
      'x',
      { clock: systemClock, emit },
      new AbortController().signal,
    )(async () => 'done', 1_000);
    await vi.advanceTimersByTimeAsync(49);
    await held.grant();
    expect(await result).toBe('done');
    expect(emit).not.toHaveBeenCalled();
  });

  it("with 'run', runs the task without the lock when the wait runs out, and a later grant runs nothing", async () => {
    const held = heldLock();
    const task = vi.fn(async () => 'done');
    const locked = lockWithin(held.lock, 'x', { clock: systemClock, emit: vi.fn() }, new AbortController().signal);
    const result = locked(task, 1_000, 'run');
    await vi.advanceTimersByTimeAsync(1_000);
    expect(await result).toBe('done');
    expect(held.signal().aborted).toBe(true);
    await held.grant();
    expect(task).toHaveBeenCalledTimes(1);
  });

  it("rejects with the signal's reason when the signal aborts, and aborts the queued request", async () => {
    const held = heldLock();
    const closing = new AbortController();
    const task = vi.fn(async () => 'done');
    const result = lockWithin(held.lock, 'x', { clock: systemClock, emit: vi.fn() }, closing.signal)(task, 1_000);
    const reason = new Error('disposed');
    closing.abort(reason);
    await expect(result).rejects.toBe(reason);
    expect(held.signal().aborted).toBe(true);
    await held.grant();
    expect(task).not.toHaveBeenCalled();
  });
});

describe('a lock that is never granted', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: TIME.T0 });
  });

  it('uses Web Locks where they exist; a wait past lockTimeout is a transient AuthRequestError, the queued request is aborted and no refresh is sent', async () => {
    const signals: AbortSignal[] = [];
    let frozen = false; // after the login, the holder freezes (a crashed worker, a frozen tab)
    const request = vi.fn((_name: string, options: { signal?: AbortSignal }, task: () => Promise<unknown>) => {
      signals.push(options.signal!);
      return frozen ? new Promise(() => {}) : task();
    });
    vi.stubGlobal('navigator', { locks: { request } });
    const stub = createFetchStub({ auto: true });
    const session = createTokenSession({
      uri: 'http://auth.test/graphql',
      fetch: stub.fetch,
      store: shareTokenStore(createMemoryTokenStore()),
    });
    await session.login('a@b.test', 'pw');
    frozen = true;
    const refresh = session.refresh().catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(19_999);
    expect(signals.at(-1)!.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const error = await refresh;
    expect(request).toHaveBeenCalledWith(
      'apollo-link-token-pair',
      { signal: expect.any(AbortSignal) },
      expect.any(Function),
    );
    expect(AuthRequestError.is(error)).toBe(true);
    expect((error as Error).message).toBe(
      'Waited 20 s for the "apollo-link-token-pair" lock, which another session holds.',
    );
    expect(signals.at(-1)!.aborted).toBe(true);
    expect(stub.of('refreshToken')).toHaveLength(0);
    expect(session.getState().status).toBe('authenticated');
    session.dispose();
  });
});
