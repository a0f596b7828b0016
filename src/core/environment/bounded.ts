import type { Clock } from './Clock';
import type { MaybePromise } from './MaybePromise';

/** How {@link bounded} bounds a piece of work. */
export interface Bound {
  readonly clock: Clock;
  /** How long the work may take, in ms. */
  readonly ms: number;
  /** The error the result rejects with when `ms` runs out. */
  readonly timeout: () => Error;
  /** Aborts the work too, with its reason: the session's dispose(). */
  readonly signal?: AbortSignal;
  /**
   * How long an answer that came in as the bound ran out gets to be read first (ms, default 0). After a page was
   * frozen, or a machine slept, its timer and the answer's events run together at the thaw, the timer often
   * first, however little past due it was.
   */
  readonly grace?: number;
}

/**
 * Runs `work` with an `AbortSignal`, and settles within `bound.ms` (plus its `grace`): past it, or when
 * `bound.signal` aborts, the work's signal aborts and the result rejects (with `timeout()`, or the outer signal's
 * reason) even if `work` ignores the signal.
 *
 * @remarks
 * Everything the app supplies (a store, a lock, a transport, a `fetch`) can hang; every wait on it goes through
 * here. A synchronous answer is returned as it is, with no promise and no timer.
 */
export function bounded<T>(work: (signal: AbortSignal) => MaybePromise<T>, bound: Bound): MaybePromise<T> {
  const { clock, ms, timeout, signal: outer, grace = 0 } = bound;
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
    const expire = () => stop(timeout());
    let timer = clock.setTimeout(() => (grace ? (timer = clock.setTimeout(expire, grace)) : expire()), ms);
    outer?.addEventListener('abort', onAbort);
    result.then(resolve, reject).finally(() => {
      clock.clearTimeout(timer);
      outer?.removeEventListener('abort', onAbort);
    });
  });
}
