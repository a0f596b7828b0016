import type { Clock } from './Clock';
import type { MaybePromise } from '../stores/TokenStore';

// How late a timer must fire to tell of a pause (a frozen page, a machine asleep), and the grace it then gives.
const LATE = 1_000;

/**
 * Runs `work` with an `AbortSignal`, and settles within `ms`: past it, or when `outer` aborts, the signal aborts
 * and the result rejects (with `timeout()`, or the outer signal's reason) even if `work` ignores the signal.
 *
 * @remarks
 * Everything the app supplies (a store, a lock, a transport, a `fetch`) can hang; every wait on it goes through
 * here. A synchronous answer is returned as it is, with no promise and no timer.
 */
export function bounded<T>(
  clock: Clock,
  ms: number,
  timeout: () => Error,
  work: (signal: AbortSignal) => MaybePromise<T>,
  outer?: AbortSignal,
): MaybePromise<T> {
  const controller = new AbortController();
  if (outer?.aborted) return Promise.reject(outer.reason);
  const result = work(controller.signal);
  if (!(result instanceof Promise)) return result;
  return new Promise<T>((resolve, reject) => {
    const stop = (error: unknown) => {
      controller.abort(error);
      reject(error);
    };
    const onAbort = () => stop(outer!.reason);
    const due = clock.now() + ms;
    // A timer that fires late, after the page was frozen or the machine slept, gives an answer that came in
    // meanwhile a moment to be read first: a refresh the service answered is not abandoned (and resubmitted).
    const expire = (again: boolean) => {
      if (again || clock.now() - due < LATE) stop(timeout());
      else timer = clock.setTimeout(() => expire(true), LATE);
    };
    let timer = clock.setTimeout(() => expire(false), ms);
    outer?.addEventListener('abort', onAbort);
    result.then(resolve, reject).finally(() => {
      clock.clearTimeout(timer);
      outer?.removeEventListener('abort', onAbort);
    });
  });
}
