import { graphQLErrorCode } from '../shared/graphQLErrorCode';
import { CombinedGraphQLErrors, ServerError } from '@apollo/client/errors';
import { hasErrorCode } from './isTokenExpiredError';

/**
 * The default test for "the service refused this operation's token": `true` for a GraphQL error whose
 * `extensions.code` is `UNAUTHENTICATED`, or HTTP 401; `'maybe'` for a GraphQL error without a code, or with
 * `INTERNAL_SERVER_ERROR` (what Apollo Server puts on any error thrown without one); `false` otherwise.
 *
 * @remarks
 * An operation that carried a token and fails with `true` triggers one refresh: if the service refuses it too,
 * the session was revoked and ends now; if not, the operation is replayed once.
 *
 * `'maybe'` is how most servers refuse the token of a revoked session: the contract names no code for it, so
 * Apollo Server, GraphQL Yoga, Mercurius, graphql-http, graphene, graphql-ruby and graphql-go all send a plain
 * "Not authenticated". Such a failure makes the session check itself with a refresh when it is worth one: at once
 * when its words speak of a refused token or session, else at most once a minute; and never again for a failure
 * that came back to the pair its own check brought ("Club not found" is the operation's, not the session's).
 *
 * @example Only the codes, never a check, for a server whose refusals always carry UNAUTHENTICATED:
 * ```ts
 * createTokenAuth({ uri, isUnauthenticatedError: (error) => isUnauthenticatedError(error) === true });
 * ```
 */
export function isUnauthenticatedError(error: unknown): boolean | 'maybe' {
  if ((ServerError.is(error) && error.statusCode === 401) || hasErrorCode(error, 'UNAUTHENTICATED')) return true;
  return (
    CombinedGraphQLErrors.is(error) &&
    error.errors.some(({ extensions }) => SAYS_NOTHING.test(graphQLErrorCode({ extensions }))) &&
    'maybe'
  );
}

// No code, or the code a framework gives every error thrown without one.
const SAYS_NOTHING = /^(|INTERNAL_SERVER_ERROR)$/;
