import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AuthRequestError, createMemoryTokenStore, shareTokenStore } from '../../../src';
import { createLock } from '../../../src/core/environment/lock';
import { createTokenSession } from '../../../src/core/session/createTokenSession';
import { createFetchStub } from '../../helpers/fetchStub';
import { TIME } from '../../helpers/session';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('createLock', () => {
  it('runs tasks under one name one at a time, in order, and goes on after a task fails', async () => {
    const lock = createLock();
    const log: string[] = [];
    const task =
      (name: string, fail = false) =>
      async () => {
        log.push(`start ${name}`);
        await new Promise((resolve) => setTimeout(resolve, 5));
        log.push(`end ${name}`);
        if (fail) throw new Error(name);
        return name;
      };
    const results = await Promise.allSettled([lock('x', task('a')), lock('x', task('b', true)), lock('x', task('c'))]);
    expect(log).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
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
