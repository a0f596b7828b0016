import { ServerError } from '@apollo/client/errors';
import { hasErrorCode } from './isTokenExpiredError';

/**
 * The default test for "the service refused this operation's token": a GraphQL error whose `extensions.code`
 * is `UNAUTHENTICATED`, or HTTP 401. An operation that carried a token and fails so triggers one refresh: if
 * the service refuses it too, the session was revoked and ends now; if not, the operation is replayed once.
 *
 * @example Refresh only on the GraphQL code, not on every 401:
 * ```ts
 * import { CombinedGraphQLErrors } from '@apollo/client';
 *
 * createTokenAuth({ uri, isUnauthenticatedError: (error) => CombinedGraphQLErrors.is(error) && isUnauthenticatedError(error) });
 * ```
 */
export function isUnauthenticatedError(error: unknown): boolean {
  return (ServerError.is(error) && error.statusCode === 401) || hasErrorCode(error, 'UNAUTHENTICATED');
}
