import { afterEach, describe, expect, it, vi } from 'vitest';
import { AuthRequestError, createLock } from '../../src';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('createLock', () => {
  it('runs tasks under one name one at a time, in order, and goes on after a task fails', async () => {
    const lock = createLock();
    const log: string[] = [];
    const task = (name: string, fail = false) => async () => {
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

  it('uses Web Locks where they exist, and turns a lock held too long into a transient AuthRequestError', async () => {
    const request = vi.fn((_name: string, _options: { signal?: AbortSignal }, _task: () => Promise<unknown>) =>
      Promise.reject(Object.assign(new Error('timed out'), { name: 'TimeoutError' })),
    );
    vi.stubGlobal('navigator', { locks: { request } });
    const error = await createLock()('apollo-link-token-pair', async () => 'never').catch((e: unknown) => e);
    expect(request).toHaveBeenCalledWith('apollo-link-token-pair', { signal: expect.any(AbortSignal) }, expect.any(Function));
    expect(AuthRequestError.is(error)).toBe(true);
    expect((error as Error).message).toBe('Waited 60 s for the "apollo-link-token-pair" lock, which another tab holds.');
  });
});
