import { getRetryDelay } from './getRetryDelay';

/**
 * A retry-delay option, a fixed wait or one per attempt ({@link getRetryDelay} when unset), as the wait before retry
 * number `attempt`: the one reading of `retryDelay` and of `./ws`'s `authRetryDelay`.
 * @internal
 */
export function toRetryDelay(
  delay: number | ((attempt: number) => number) = getRetryDelay,
): (attempt: number) => number {
  return typeof delay === 'number' ? () => delay : delay;
}
