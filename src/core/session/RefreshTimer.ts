import type { Clock } from '../environment/Clock';

// setTimeout fires at once for delays above 2^31 − 1 ms.
const MAX_DELAY = 2 ** 31 - 1;

/** One timer that calls back at an absolute time of a clock. See {@link createRefreshTimer}. */
export interface RefreshTimer {
  /** Calls back at `time` (ms since the epoch), replacing any earlier schedule. */
  at(time: number): void;
  /** Stops the pending call, if any. */
  cancel(): void;
}

/**
 * Creates a {@link RefreshTimer} on the injected clock.
 *
 * @remarks
 * Long delays are split under setTimeout's cap, and a timer that fires early by the clock (the cap, or a
 * clock set back) re-arms instead of calling back. One that fires late, after the machine slept, calls back
 * at once.
 */
export function createRefreshTimer(clock: Clock, callback: () => void): RefreshTimer {
  let handle: unknown;
  // Clearing a timer that has fired, or none, does nothing.
  const cancel = () => clock.clearTimeout(handle);
  const arm = (time: number) => {
    handle = clock.setTimeout(
      () => (clock.now() < time ? arm(time) : callback()),
      Math.min(Math.max(time - clock.now(), 0), MAX_DELAY),
    );
  };
  return {
    at(time) {
      cancel();
      arm(time);
    },
    cancel,
  };
}
