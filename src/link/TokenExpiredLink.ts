import { ApolloLink } from '@apollo/client';
import { CombinedGraphQLErrors } from '@apollo/client/errors';
import { catchError, defer, from, map, mergeMap, throwError } from 'rxjs';
import { isTokenExpiredError } from './isTokenExpiredError';
import { isUnauthenticatedError } from './isUnauthenticatedError';
import { SENT_TOKEN_KEY, type SentToken } from './TokenAuthLink';

/**
 * The key under which `createTokenAuth` keeps its `isTokenExpiredError` option on the session, for `./ws`.
 * @internal
 */
export const IS_TOKEN_EXPIRED = Symbol.for('apollo-link-token-pair.expired');

// Set on an operation once it has been replayed: a link that sends it again (RetryLink placed before this one)
// gets the refusal passed on, not another refresh.
const REPLAYED_KEY = 'tokenPairReplayed';
const REPLAY = Symbol();

/** What {@link TokenExpiredLink} needs from the session. */
export interface TokenRecovery {
  /**
   * Makes a fresh token available after an attempt sent with `sent` was refused; rejects when the session it
   * was sent in has ended.
   */
  recover(sent: SentToken | undefined): Promise<unknown>;
}

export declare namespace TokenExpiredLink {
  /** Options of {@link TokenExpiredLink}. */
  interface Options {
    /** The session that owns the pair, the one inside `createTokenAuth`. */
    auth: TokenRecovery;
    /**
     * Decides whether a failure means "the access token expired". Receives a `CombinedGraphQLErrors` for a
     * result with GraphQL errors, or the error the chain threw (`ServerError`, …).
     * @defaultValue {@link isTokenExpiredError}
     */
    isTokenExpiredError?: (error: unknown, operation: ApolloLink.Operation) => boolean;
    /**
     * Decides whether a failure of an operation that carried a token means "the token was refused".
     * @defaultValue {@link isUnauthenticatedError}
     */
    isUnauthenticatedError?: (error: unknown, operation: ApolloLink.Operation) => boolean;
  }
}

/**
 * Renews the pair when an operation fails with `TOKEN_EXPIRED` (or, having carried a token, unauthenticated)
 * and replays the operation once.
 *
 * @remarks
 * Place it before {@link TokenAuthLink} so the replay picks up the new token. Concurrent failures share one
 * refresh; a failure that arrives after the pair was already replaced is replayed with the current token and
 * no refresh at all. The replay's outcome, success or failure, is passed on unchanged: it is never replayed
 * again, not even when a `RetryLink` placed before this link sends the operation once more. An operation is
 * replayed only within the session it was sent in: after a logout, a rejected refresh
 * or a login as someone else it fails with `SessionEndedError`. Other errors pass through untouched.
 */
export class TokenExpiredLink extends ApolloLink {
  constructor(options: TokenExpiredLink.Options) {
    const { auth, isTokenExpiredError: isExpired = isTokenExpiredError, isUnauthenticatedError: isRefused = isUnauthenticatedError } = options;
    super((operation, forward) =>
      defer(() => {
        let emitted = false;
        const sent = () => operation.getContext()[SENT_TOKEN_KEY] as SentToken | undefined;
        // Only an operation that has delivered nothing yet is replayed: replaying after a deferred chunk went
        // out would hand the consumer the same data twice.
        const shouldReplay = (error: unknown) =>
          !emitted && !operation.getContext()[REPLAYED_KEY] && (isExpired(error, operation) || (!!sent() && isRefused(error, operation)));
        return forward(operation).pipe(
          map((result) => {
            // Thrown to leave the first attempt (unsubscribed at once) for the replay below.
            if (result.errors && shouldReplay(new CombinedGraphQLErrors(result, result.errors))) throw REPLAY;
            emitted = true;
            return result;
          }),
          catchError((error: unknown) =>
            error === REPLAY || shouldReplay(error)
              ? from(auth.recover(sent())).pipe(
                  mergeMap(() => {
                    operation.setContext({ [REPLAYED_KEY]: true });
                    return forward(operation);
                  }),
                )
              : throwError(() => error),
          ),
        );
      }),
    );
  }
}
