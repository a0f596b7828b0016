import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createRefreshTimer } from '../../../src/core/session/RefreshTimer';
import { systemClock } from '../../../src/core/environment/Clock';

const T0 = Date.UTC(2026, 0, 1);
const DAY = 86_400_000;

beforeEach(() => {
  vi.useFakeTimers({ now: T0 });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('RefreshTimer', () => {
  it('waits past the 2^31 − 1 ms setTimeout cap instead of firing at once', async () => {
    const fired = vi.fn();
    createRefreshTimer(systemClock, fired).at(T0 + 30 * DAY);
    await vi.advanceTimersByTimeAsync(2 ** 31);
    expect(fired).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(30 * DAY - 2 ** 31 - 1);
    expect(fired).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(fired).toHaveBeenCalledTimes(1);
  });

  it('re-arms when it fires before its time by the clock (clock set back)', async () => {
    const fired = vi.fn();
    createRefreshTimer(systemClock, fired).at(T0 + 1_000);
    vi.setSystemTime(T0 - 5_000);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(fired).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(fired).toHaveBeenCalledTimes(1);
  });

  it('fires at once when armed for a time already past, and a new schedule replaces the old', async () => {
    const fired = vi.fn();
    const timer = createRefreshTimer(systemClock, fired);
    timer.at(T0 + 10_000);
    timer.at(T0 - 1);
    await vi.advanceTimersByTimeAsync(0);
    expect(fired).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(20_000);
    expect(fired).toHaveBeenCalledTimes(1);
    timer.at(T0 + 60_000);
    timer.cancel();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(fired).toHaveBeenCalledTimes(1);
    expect(vi.getTimerCount()).toBe(0);
  });
});
