import { CombinedGraphQLErrors, ServerError } from '@apollo/client/errors';

/**
 * The default test for "this operation failed because its access token expired": a GraphQL error whose
 * `extensions.code` is `TOKEN_EXPIRED`, as the spec defines.
 *
 * @remarks
 * The code is found in a result's GraphQL errors (how Apollo Client 4 hands a GraphQL error to a link,
 * wrapped here as `CombinedGraphQLErrors`) and in the JSON body of a `ServerError`, which is what a server
 * that answers HTTP 401 with a GraphQL body produces (an array of results, for a batch).
 *
 * @example Also refresh on a code of your own:
 * ```ts
 * createTokenAuth({ uri, isTokenExpiredError: (error) => isTokenExpiredError(error) || isMyExpiredError(error) });
 * ```
 */
export function isTokenExpiredError(error: unknown): boolean {
  return hasErrorCode(error, 'TOKEN_EXPIRED');
}

/** Whether `error` carries a GraphQL error with `extensions.code === code`, in a result or a `ServerError` body. */
export function hasErrorCode(error: unknown, code: string): boolean {
  let errors: unknown = CombinedGraphQLErrors.is(error) ? error.errors : undefined;
  if (ServerError.is(error)) {
    try {
      const body: unknown = JSON.parse(error.bodyText);
      errors = [body].flat().flatMap((result) => (result as { errors?: unknown[] } | null)?.errors ?? []);
    } catch {
      return false;
    }
  }
  return (
    Array.isArray(errors) &&
    errors.some((item) => (item as { extensions?: { code?: unknown } })?.extensions?.code === code)
  );
}
