import { describe, expect, it, vi } from 'vitest';
import { toRetryDelay } from '../../../src/core/session/toRetryDelay';

describe('toRetryDelay: the one reading of a retry-delay option', () => {
  it('a number: the same wait before every retry', () => {
    const delay = toRetryDelay(250);
    expect([1, 2, 7].map(delay)).toEqual([250, 250, 250]);
  });

  it('a function: asked for each retry by its number', () => {
    const own = vi.fn((attempt: number) => attempt * 10);
    expect(toRetryDelay(own)).toBe(own);
    expect(toRetryDelay(own)(3)).toBe(30);
  });

  it('unset: full jitter up to 1 s for the first retry, capped at 30 s', () => {
    const delay = toRetryDelay();
    for (let i = 0; i < 50; i++) {
      expect(delay(1)).toBeGreaterThanOrEqual(0);
      expect(delay(1)).toBeLessThanOrEqual(1_000);
      expect(delay(40)).toBeLessThanOrEqual(30_000);
    }
    vi.spyOn(Math, 'random').mockReturnValue(1);
    expect([delay(1), delay(2), delay(40)]).toEqual([1_000, 2_000, 30_000]);
    vi.restoreAllMocks();
  });
});
