import { AuthRejectedError } from '../errors/AuthRejectedError';
import { AuthRequestError } from '../errors/AuthRequestError';
import { SessionEndedError, type SessionEndReason } from '../errors/SessionEndedError';
import type { TokenPair } from '../tokens/TokenPair';
import { REFUSALS } from './sessionLimits';

/** What a failed refresh comes to: a retry later, or the end of the session with its reason. */
export type RefreshVerdict =
  { readonly retry: true } | { readonly retry: false; readonly reason: SessionEndReason; readonly cause: unknown };

/** Whether `error` is a refusal that the service itself was not sure of (see `AuthRejectedError.uncertain`). */
export function isUncertainRefusal(error: unknown): boolean {
  return AuthRejectedError.is(error) && !!error.uncertain;
}

/**
 * Judges a refresh of `pair` that failed with `error`, the `refusals`-th uncertain refusal in a row (0 for
 * none); `restoring`: the refresh of a pair read from the store at start.
 *
 * @remarks
 * - No verdict (the network, a timeout, a 5xx) is retried; so is an uncertain refusal, until the service has
 *   answered so {@link REFUSALS} times.
 * - A service that keeps the session may say it has none (quietly signed out while the page was still finding
 *   out: a pair with no access token) or that it was logged out; any other refusal, or "no session" in mid-session,
 *   is a rejection.
 */
export function judgeRefreshFailure(
  error: unknown,
  { refusals, pair, restoring = false }: { refusals: number; pair: TokenPair; restoring?: boolean },
): RefreshVerdict {
  if (AuthRequestError.is(error) || (isUncertainRefusal(error) && refusals < REFUSALS)) return { retry: true };
  if (!SessionEndedError.is(error)) return { retry: false, reason: 'rejected', cause: error };
  // At a page load, "no session here" is a first visit, whatever pair the store held.
  const told = error.reason !== 'no-session' || !pair.accessToken || restoring;
  return { retry: false, reason: told ? error.reason : 'rejected', cause: error.cause };
}
