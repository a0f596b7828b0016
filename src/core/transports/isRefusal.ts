import type { AuthRejectedError } from '../errors/AuthRejectedError';
import { speaksOfAuth } from '../../shared/speaksOfAuth';
import { graphQLErrorCode } from '../../shared/graphQLErrorCode';

/**
 * The auth call a server answered: `login` (`loginWithEmailPassword`, or a sign-in door of `signIns`), `refresh`
 * (`refreshToken`) or `logout`.
 */
export type AuthCall = 'login' | 'refresh' | 'logout';

// Codes that gateways and routers put on a failure of the service behind them: no verdict on the token.
const SERVICE_FAILURE = /^(SERVICE_UNAVAILABLE|GATEWAY_TIMEOUT|SUBREQUEST_HTTP_ERROR|DOWNSTREAM_SERVICE_ERROR)$/;

/**
 * Tells whether the GraphQL errors a server answered an auth call with are a refusal: `true` (a verdict: wrong
 * credentials, a refresh token that is spent, revoked or expired), `false` (the server failing: retried with
 * backoff, the session kept) or `'maybe'` (either: a refresh is retried, and the session ends when three
 * attempts in a row are answered so).
 *
 * @remarks
 * The default of the `isRefusal` option. The contract names no error for a refusal, so real servers send what
 * their framework makes of a thrown error:
 * - no code (GraphQL Yoga, a plain `GraphQLError`): a verdict;
 * - `INTERNAL_SERVER_ERROR`, which Apollo Server puts on every error thrown without a code, the refusal
 *   "Invalid refresh token" and a database outage alike: a verdict when its words speak of a refused token or
 *   session ("Invalid refresh token", "jwt expired", "Not authenticated"), else `'maybe'`; likewise Hasura's
 *   `unexpected` (an action handler that answered 5xx);
 * - a gateway's failure code (`SERVICE_UNAVAILABLE`, `GATEWAY_TIMEOUT`, `SUBREQUEST_HTTP_ERROR`,
 *   `DOWNSTREAM_SERVICE_ERROR`): no verdict;
 * - any other code (`UNAUTHENTICATED`, `INVALID_REFRESH_TOKEN`, …): a verdict.
 *
 * At login, any error but a gateway's is a refusal, so the app shows the server's words ("Invalid email or
 * password"). Network failures, timeouts, HTTP 5xx, 408 and 429 and bodies that are not JSON never reach this
 * function: they are outages.
 *
 * @example A server whose refusals carry codes of its own, and whose other errors are failures:
 * ```ts
 * const auth = createTokenAuth({
 *   uri: '/graphql',
 *   isRefusal: (error, call) => call === 'login' || ['INVALID_REFRESH_TOKEN', 'SESSION_REVOKED'].includes(error.code ?? ''),
 * });
 * ```
 */
export function isRefusal(error: AuthRejectedError, call: AuthCall): boolean | 'maybe' {
  const codes = error.errors.map(graphQLErrorCode);
  if (codes.some((code) => SERVICE_FAILURE.test(code))) return false;
  return (
    call === 'login' ||
    !codes.some((code) => code === 'INTERNAL_SERVER_ERROR' || code === 'unexpected') ||
    speaksOfAuth(error.message) ||
    'maybe'
  );
}
