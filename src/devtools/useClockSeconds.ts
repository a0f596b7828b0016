import { useCallback, useSyncExternalStore } from 'react';
import type { Clock } from '../index';

/**
 * The time by `clock`, in whole seconds (ms since the epoch, rounded down to the second), re-rendering once a
 * second: the countdowns of the panel, by the session's own clock.
 */
export function useClockSeconds(clock: Clock): number {
  const subscribe = useCallback(
    (listener: () => void) => {
      let handle: unknown;
      // The clock's timers, not the page's: tests with fake timers, and a session on an injected clock, drive it.
      const schedule = () => {
        handle = clock.setTimeout(tick, 1000 - (clock.now() % 1000));
      };
      const tick = () => {
        schedule();
        listener();
      };
      schedule();
      return () => clock.clearTimeout(handle);
    },
    [clock],
  );
  const read = () => Math.floor(clock.now() / 1000) * 1000;
  return useSyncExternalStore(subscribe, read, read);
}
