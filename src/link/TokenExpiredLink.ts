import { ApolloLink } from '@apollo/client';
import { CombinedGraphQLErrors } from '@apollo/client/errors';
import { Observable, type Subscription } from 'rxjs';
import { isTokenExpiredError } from './isTokenExpiredError';
import { isUnauthenticatedError } from './isUnauthenticatedError';
import { SENT_TOKEN_KEY, type SentToken } from './TokenAuthLink';

/**
 * The key under which `createTokenAuth` keeps its `isTokenExpiredError` option on the session, for `./ws`.
 * @internal
 */
export const IS_TOKEN_EXPIRED = Symbol.for('apollo-link-token-pair.isTokenExpiredError');

// Set on an operation once it has been replayed: a link that sends it again (RetryLink placed before this one)
// gets the refusal passed on, not another refresh.
const REPLAYED_KEY = 'tokenPairReplayed';

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
    super(
      (operation, forward) =>
        new Observable((observer) => {
          let closed = false;
          let emitted = false;
          let replaying = false;
          let first: Subscription | undefined;
          let replay: Subscription | undefined;
          const sent = () => operation.getContext()[SENT_TOKEN_KEY] as SentToken | undefined;
          // Only an operation that has delivered nothing yet is replayed: replaying after a deferred chunk went
          // out would hand the consumer the same data twice.
          const shouldReplay = (error: unknown) =>
            !emitted &&
            !operation.getContext()[REPLAYED_KEY] &&
            (isExpired(error, operation) || (!!sent() && isRefused(error, operation)));
          const startReplay = () => {
            replaying = true;
            first?.unsubscribe();
            auth
              .recover(sent())
              .then(() => {
                if (closed) return;
                operation.setContext({ [REPLAYED_KEY]: true });
                replay = forward(operation).subscribe(observer);
              })
              .catch((error: unknown) => {
                if (!closed) observer.error(error);
              });
          };
          first = forward(operation).subscribe({
            next(result) {
              if (replaying) return;
              if (result.errors && shouldReplay(new CombinedGraphQLErrors(result, result.errors))) startReplay();
              else {
                emitted = true;
                observer.next(result);
              }
            },
            error(error: unknown) {
              if (replaying) return;
              if (shouldReplay(error)) startReplay();
              else observer.error(error);
            },
            complete() {
              if (!replaying) observer.complete();
            },
          });
          if (replaying) first.unsubscribe();
          return () => {
            closed = true;
            first?.unsubscribe();
            replay?.unsubscribe();
          };
        }),
    );
  }
}
