import { CombinedGraphQLErrors, ServerError } from '@apollo/client/errors';
import { AuthRejectedError, AuthRequestError, SessionEndedError } from 'apollo-link-token-pair';

/**
 * Why one query of a burst failed, in a few words that group well ("8 × session ended"): the session's end, the
 * server's error code, the HTTP status, or the network.
 */
export function describeFailure(error: unknown, offline: boolean): string {
  if (SessionEndedError.is(error) || AuthRejectedError.is(error)) return 'session ended';
  // The session's end clears Apollo's cache, which ends the queries still in flight with this.
  if ((error as Error)?.name === 'Invariant Violation' && /store reset/i.test(String((error as Error).message)))
    return 'session ended';
  if (AuthRequestError.is(error))
    return error.status === undefined ? 'refresh got no answer' : `refresh got HTTP ${error.status}`;
  if (CombinedGraphQLErrors.is(error)) return String(error.errors[0]?.extensions?.['code'] ?? 'GraphQL error');
  if (ServerError.is(error)) return `HTTP ${error.statusCode}`;
  if (error instanceof TypeError || (error as Error)?.name === 'TypeError')
    return offline ? 'offline' : 'network error';
  return (error as Error)?.name || 'error';
}

/**
 * A burst's result: "20 of 20 queries succeeded in 35 ms", or with its failures counted by reason, the most
 * frequent first: "12 of 20 queries succeeded in 80 ms — 8 failed: 8 × session ended".
 */
export function describeBurst(results: readonly PromiseSettledResult<unknown>[], ms: number, offline: boolean): string {
  const total = results.length;
  const reasons = new Map<string, number>();
  for (const result of results) {
    if (result.status === 'rejected') {
      const reason = describeFailure(result.reason, offline);
      reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
    }
  }
  const failed = [...reasons.values()].reduce((sum, n) => sum + n, 0);
  const head = `${total - failed} of ${total} ${total === 1 ? 'query' : 'queries'} succeeded in ${Math.round(ms)} ms`;
  if (!failed) return head;
  const counts = [...reasons].sort((a, b) => b[1] - a[1]).map(([reason, n]) => `${n} × ${reason}`);
  return `${head} — ${failed} failed: ${counts.join(', ')}`;
}
