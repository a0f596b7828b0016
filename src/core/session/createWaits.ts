import type { Clock } from '../environment/Clock';

/** Every wait of a session, so that the session can end them all. See {@link createWaits}. */
export interface Waits {
  /** Resolves after `ms` (at once for none), or sooner when woken. */
  sleep(ms: number): Promise<void>;
  /**
   * Settles as `refresh` does, or resolves after `ms` (no bound when absent), or at once when released: the
   * caller then reads what the session came to.
   */
  join(refresh: Promise<unknown> | undefined, ms?: number): Promise<void>;
  /** Ends every sleep: the app asked for a refresh now, which a floor or a scheduled retry must not delay. */
  wakeSleepers(): void;
  /** Ends every wait: the pair they wait on was replaced, or the session ended or was disposed. */
  releaseAll(): void;
}

/**
 * Creates the {@link Waits} of a session on `clock`; once `signal` aborts (dispose), sleeps end at once.
 *
 * @remarks
 * A wait on a refresh is not a race with a promise of the session's end: each wait would leave a reaction on that
 * promise until then, and a session waits on every refresh of a page's life. Each wait is a callback in a set,
 * removed once it settles.
 */
export function createWaits(clock: Clock, signal: AbortSignal): Waits {
  const sleepers = new Set<() => void>();
  const joins = new Set<() => void>();
  const wake = (waits: Set<() => void>) => {
    for (const done of [...waits]) done();
  };
  return {
    sleep(ms) {
      if (!(ms > 0) || signal.aborted) return Promise.resolve();
      return new Promise((resolve) => {
        const done = () => {
          clock.clearTimeout(handle);
          sleepers.delete(done);
          resolve();
        };
        const handle = clock.setTimeout(done, ms);
        // Someone waits on it (an operation, a refresh): unlike the proactive timer, it holds a Node process up.
        (handle as { ref?: () => void } | undefined)?.ref?.();
        sleepers.add(done);
      });
    },
    join(refresh, ms) {
      return new Promise((resolve, reject) => {
        const done = () => resolve(clock.clearTimeout(deadline));
        const deadline = ms === undefined ? undefined : clock.setTimeout(done, ms);
        joins.add(done);
        void Promise.resolve(signal.aborted || refresh)
          .then(done, reject)
          .then(() => joins.delete(done));
      });
    },
    wakeSleepers: () => wake(sleepers),
    releaseAll() {
      // Joins first: the operations that waited on the old pair's refresh go on before a sleeper's wake-up can
      // start a refresh of the new one.
      wake(joins);
      wake(sleepers);
    },
  };
}
