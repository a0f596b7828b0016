import type { Clock } from './Clock';
import type { MaybePromise } from '../stores/TokenStore';

/**
 * Runs `work` with an `AbortSignal`, and settles within `ms` (plus `grace`): past it, or when `outer` aborts, the
 * signal aborts and the result rejects (with `timeout()`, or the outer signal's reason) even if `work` ignores the
 * signal.
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
  grace = 0,
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
    // `grace`: an answer that came in as the bound ran out gets that long to be read first. After a page was
    // frozen, or a machine slept, its timer and the answer's events run together at the thaw, the timer often
    // first, however little past due it was.
    let timer = clock.setTimeout(
      () => (grace ? (timer = clock.setTimeout(() => stop(timeout()), grace)) : stop(timeout())),
      ms,
    );
    outer?.addEventListener('abort', onAbort);
    result.then(resolve, reject).finally(() => {
      clock.clearTimeout(timer);
      outer?.removeEventListener('abort', onAbort);
    });
  });
}
