import { CombinedGraphQLErrors, ServerError } from '@apollo/client/errors';

/**
 * The default test for "this operation failed because its access token expired": a GraphQL error whose
 * `extensions.code` is `TOKEN_EXPIRED`, as the spec defines.
 *
 * @remarks
 * The code is found in a result's GraphQL errors (how Apollo Client 4 hands a GraphQL error to a link,
 * wrapped here as `CombinedGraphQLErrors`) and in the JSON body of a `ServerError`, which is what a server
 * that answers HTTP 401 with a GraphQL body produces. A bare 401 without the code is not treated as expired:
 * the spec reserves the refresh for `TOKEN_EXPIRED`, and a 401 may equally mean a revoked session. To
 * refresh on any 401, pass your own predicate:
 *
 * @example
 * ```ts
 * createTokenAuth({
 *   uri,
 *   isTokenExpiredError: (error) => isTokenExpiredError(error) || (ServerError.is(error) && error.statusCode === 401),
 * });
 * ```
 */
export function isTokenExpiredError(error: unknown): boolean {
  if (CombinedGraphQLErrors.is(error)) return hasTokenExpiredCode(error.errors);
  if (ServerError.is(error)) {
    try {
      return hasTokenExpiredCode(JSON.parse(error.bodyText)?.errors);
    } catch {
      return false;
    }
  }
  return false;
}

function hasTokenExpiredCode(errors: unknown): boolean {
  return (
    Array.isArray(errors) &&
    errors.some((error) => (error as { extensions?: { code?: unknown } })?.extensions?.code === 'TOKEN_EXPIRED')
  );
}
