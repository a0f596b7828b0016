import { describe, expect, it } from 'vitest';
import { createLock } from '../../../src/core/environment/lock';

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
