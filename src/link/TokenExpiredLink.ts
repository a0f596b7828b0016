import { ApolloLink } from '@apollo/client';
import { CombinedGraphQLErrors } from '@apollo/client/errors';
import { from, mergeMap, Observable, of, throwError, type Subscription } from 'rxjs';
import { isTokenExpiredError } from './isTokenExpiredError';
import { isUnauthenticatedError } from './isUnauthenticatedError';
import { skipsTokenAuth } from './skipTokenAuth';
import { SENT_TOKEN_KEY, type SentToken } from './TokenAuthLink';
import type { OperationEvent } from '../core/session/TokenAuthEvent';

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
  /**
   * Whether an attempt sent with `sent` and refused with `failure` (the error's messages), an error that may
   * mean the session is dead, should be replayed: `true` once the session renewed its pair to check, `false` to
   * pass the failure on; rejects when the check found the session dead. Without it, such failures pass on.
   */
  check?(sent: SentToken | undefined, failure: string): Promise<boolean>;
  /** Tells the session's observers that an operation is replayed. */
  emit?(event: OperationEvent): void;
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
     * Decides whether a failure of an operation that carried a token means "the token was refused": `true`
     * (refresh, and replay once), `'maybe'` (it may: the session checks itself with a refresh when the failure
     * is worth one, see {@link isUnauthenticatedError}) or `false` (pass it on).
     * @defaultValue {@link isUnauthenticatedError}
     */
    isUnauthenticatedError?: (error: unknown, operation: ApolloLink.Operation) => boolean | 'maybe';
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
 * or a login as someone else it fails with `SessionEndedError`.
 *
 * A failure that may mean the session is dead (by default a GraphQL error without a code, as most servers
 * refuse the token of a revoked session) makes the session check itself with a refresh when it is worth one:
 * refused, the session ends and the operation fails with `SessionEndedError`; renewed, the operation is
 * replayed once; not worth a check, the failure is passed on as it came. Other errors pass through untouched, and
 * so does every outcome of an operation whose context says `skipTokenAuth: true`.
 */
export class TokenExpiredLink extends ApolloLink {
  constructor({
    auth,
    isTokenExpiredError: isExpired = isTokenExpiredError,
    isUnauthenticatedError: isRefused = isUnauthenticatedError,
  }: TokenExpiredLink.Options) {
    super(
      (operation, forward) =>
        new Observable<ApolloLink.Result>((consumer) => {
          // Only an operation that has delivered nothing yet is replayed: replaying after a deferred chunk went
          // out would hand the consumer the same data twice.
          let delivered = false;
          let recovering = false;
          let first: Subscription | undefined = undefined;
          // Hands the consumer over from the first attempt, refused with `error`, to what replaces it: a replay,
          // a check, or `passOn` (the result, or the error) when the session declines to check. Says whether it
          // did: not when the predicates let the failure pass. A predicate that throws fails the operation with
          // what it threw, as an operator would.
          const recover = (error: unknown, passOn: () => Observable<ApolloLink.Result>): boolean => {
            const sent = () => operation.getContext()[SENT_TOKEN_KEY] as SentToken | undefined;
            const replay = () => {
              operation.setContext({ [REPLAYED_KEY]: true });
              auth.emit?.({ type: 'replayed', operation: operation.operationName });
              return forward(operation);
            };
            let recovery: Observable<ApolloLink.Result>;
            try {
              const context = operation.getContext();
              // An operation that needs no token (`skipTokenAuth`) is never replayed, nor one replayed already.
              const refused =
                !delivered &&
                !context[REPLAYED_KEY] &&
                !skipsTokenAuth(context) &&
                (isExpired(error, operation) || (!!sent() && isRefused(error, operation)));
              if (!refused) return false;
              recovery =
                refused === true
                  ? from(auth.recover(sent())).pipe(mergeMap(replay))
                  : !auth.check
                    ? passOn()
                    : from(auth.check(sent(), messagesOf(error))).pipe(
                        mergeMap((renewed) => (renewed ? replay() : passOn())),
                      );
            } catch (thrown) {
              recovery = throwError(() => thrown);
            }
            recovering = true;
            first?.unsubscribe();
            // The consumer itself: the recovery ends when the consumer unsubscribes.
            recovery.subscribe(consumer);
            return true;
          };
          // The first attempt is listened to by hand, not through operators: the happy path costs one
          // subscription, and a refusal closes it, also one that came synchronously, before `subscribe` returned.
          first = forward(operation).subscribe({
            next(result) {
              if (recovering) return;
              if (result.errors && recover(new CombinedGraphQLErrors(result, result.errors), () => of(result))) return;
              delivered = true;
              consumer.next(result);
            },
            error(error: unknown) {
              if (!recovering && !recover(error, () => throwError(() => error))) consumer.error(error);
            },
            complete() {
              if (!recovering) consumer.complete();
            },
          });
          if (recovering) first.unsubscribe();
          return first;
        }),
    );
  }
}

function messagesOf(error: unknown): string {
  return CombinedGraphQLErrors.is(error)
    ? error.errors.map((each) => each.message).join('\n')
    : String((error as Error | undefined)?.message ?? error);
}
