import { describe, expect, it } from 'vitest';
import { rememberAtMost } from '../../../src/core/environment/rememberAtMost';

describe('rememberAtMost: a memory of recent values that stays small', () => {
  it.each([
    ['below the limit: keeps all, in order', ['a', 'b'], 3, ['a', 'b']],
    ['at the limit: keeps all', ['a', 'b', 'c'], 3, ['a', 'b', 'c']],
    ['past it: forgets the oldest first', ['a', 'b', 'c', 'd', 'e'], 3, ['c', 'd', 'e']],
    ['a value seen again keeps its first place', ['a', 'b', 'a', 'c', 'd'], 3, ['b', 'c', 'd']],
    ['a limit of one: the latest only', ['a', 'b'], 1, ['b']],
  ])('%s', (_name, values, limit, kept) => {
    const memory = new Set<string>();
    for (const value of values) rememberAtMost(memory, value, limit);
    expect([...memory]).toEqual(kept);
  });
});
