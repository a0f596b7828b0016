import { afterEach, describe, expect, it, vi } from 'vitest';
import { getRetryDelay } from '../../../src/core/session/getRetryDelay';

afterEach(() => vi.restoreAllMocks());

describe('getRetryDelay: full jitter up to 1 s, 2 s, 4 s … capped at 30 s', () => {
  it.each([
    ['the first retry, the random draw at 0: at once', 1, 0, 0],
    ['the first retry, half way: 500 ms', 1, 0.5, 500],
    ['the first retry, at the top of the draw: 1 s', 1, 1, 1_000],
    ['the second: up to 2 s', 2, 1, 2_000],
    ['the third: up to 4 s', 3, 1, 4_000],
    ['the fifth: up to 16 s', 5, 1, 16_000],
    ['the sixth: 32 s capped at 30 s', 6, 1, 30_000],
    ['the sixth, half way: half the cap', 6, 0.5, 15_000],
    ['the fortieth: still 30 s at most', 40, 1, 30_000],
    ['the fortieth, a quarter of the way: 7.5 s', 40, 0.25, 7_500],
  ])('%s', (_name, attempt, draw, delay) => {
    expect(getRetryDelay(attempt, () => draw)).toBe(delay);
  });

  it('draws from Math.random when given no random source', () => {
    vi.spyOn(Math, 'random').mockReturnValue(0.25);
    expect(getRetryDelay(3)).toBe(1_000);
    expect(Math.random).toHaveBeenCalledTimes(1);
  });
});
