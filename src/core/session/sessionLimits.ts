import { DEFAULT_LOCK_WAIT } from '../environment/lock';

/**
 * A refresh answered with an uncertain refusal this many times in a row ends the session: with the default floor
 * and backoff, about 10 s after the first. The token handler (`./server`) gives up on a refresh token after as
 * many.
 */
export const REFUSALS = 3;

/**
 * A store that failed this many reads in a row at start (on the retry backoff, or read again by an operation) is
 * given up on: the session shows `unauthenticated` with the store's error until the next start or login.
 */
export const STORE_READS = 5;

/**
 * An operation that needs a new pair while a retry is scheduled waits for that retry when it is due within this
 * long of when the operation began to wait; past it, the operation fails with the failure the retry waits out.
 */
export const RETRY_JOIN = 10_000;

/**
 * How long an operation waits at most for a pair, its replay after `TOKEN_EXPIRED` included: a second past the
 * lock wait of the session's store, so that when both run out together the lock's failure, which says more, is
 * the one the operation gets.
 */
export function getOperationWait(lockWait: number = DEFAULT_LOCK_WAIT): number {
  return lockWait + 1_000;
}

/** How many of its last events a session keeps for an observer that comes later (the devtools, a logger). */
export const EVENTS_KEPT = 100;
