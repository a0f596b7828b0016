import { AuthRequestError } from '../errors/AuthRequestError';
import type { Clock } from './Clock';
import type { Lock } from './lock';

/** What {@link lockWithin} needs of the session that waits: its clock, and where a long wait is told. */
export interface LockWaiter {
  readonly clock: Clock;
  /** Told how long a grant took, in ms, when it took long enough to mean that another session held the lock. */
  emit(event: { readonly type: 'lock'; readonly ms: number }): void;
}

/**
 * Runs `task` under the lock, waiting for it at most `wait` ms, and resolves what `task` resolves. When the lock
 * is not granted in time the result rejects, or with `ifNotGranted: 'run'` the task runs without it.
 */
export type LockedTask = <T>(task: () => Promise<T>, wait: number, ifNotGranted?: 'run') => Promise<T>;

// A lock granted sooner than this was free: the wait is the lock's own overhead, not another session's task, and
// is not told.
const LOCK_NOTED = 50;

/**
 * Waits for `lock` under `name` with a deadline: the {@link LockedTask} of one session.
 *
 * @remarks
 * A wait that runs out fails with a transient `AuthRequestError` (`'lock'`), and one that `signal` aborts (the
 * session's close) with the signal's reason: a holder that crashed or a frozen tab must not stall the others for
 * good. The lock's queued request is aborted then, and a grant that comes later runs nothing and releases at once.
 * A lock that fails before its grant gives up the wait with its error.
 */
export function lockWithin(lock: Lock, name: string, waiter: LockWaiter, signal: AbortSignal): LockedTask {
  const { clock } = waiter;
  return (task, wait, ifNotGranted) =>
    new Promise((resolve, reject) => {
      const controller = new AbortController();
      let waiting = true;
      const stopWaiting = () => {
        clock.clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        const was = waiting;
        waiting = false;
        return was;
      };
      const giveUp = (error: unknown) => {
        if (!stopWaiting()) return;
        controller.abort();
        if (ifNotGranted === 'run') task().then(resolve, reject);
        else reject(error);
      };
      const onAbort = () => giveUp(signal.reason);
      const timer = clock.setTimeout(
        () =>
          giveUp(
            new AuthRequestError(
              `Waited ${wait / 1000} s for the "${name}" lock, which another session holds.`,
              'lock',
            ),
          ),
        wait,
      );
      signal.addEventListener('abort', onAbort);
      const asked = clock.now();
      lock(
        name,
        async () => {
          if (!stopWaiting()) return;
          const ms = clock.now() - asked;
          if (ms >= LOCK_NOTED) waiter.emit({ type: 'lock', ms });
          await task().then(resolve, reject);
        },
        controller.signal,
      ).catch(giveUp);
    });
}
