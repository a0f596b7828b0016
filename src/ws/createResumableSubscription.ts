import type { Client, FormattedExecutionResult, Sink, SubscribePayload } from 'graphql-ws';
import { CombinedGraphQLErrors } from '@apollo/client/errors';
import { isTokenExpiredError, SessionEndedError, TokenRefusedError, type Clock, type TokenAuth } from '../index';
import { getTokenAuthInternals } from '../internal';
import { isRefusal } from './isRefusal';
import { freshUntil, type Renewal } from './Renewal';

/** A result of a subscription. */
export type Result = FormattedExecutionResult<Record<string, unknown>, unknown>;

/** How a subscription ends: with this error, or (`undefined`) complete. */
export type Outcome = { error: unknown } | undefined;

/** What a resumable subscription needs from the client that runs it: its options, read once, and its connection. */
export interface ResumableSubscriptionHost {
  /** graphql-ws's own client: each of its subscriptions is one stream of ours. */
  readonly client: Pick<Client, 'subscribe'>;
  readonly auth: Pick<TokenAuth, 'getAccessToken' | 'refresh' | 'getState'>;
  /** The subscriptions that run: each adds itself, and deletes itself when it ends. */
  readonly running: Set<ResumableSubscription>;
  /** How many resumes in a row, with no event between, before the subscription errors with the last failure. */
  readonly authRetryAttempts: number;
  /** The wait before resume number `attempt + 1`: the first runs at once. */
  authRetryDelay(attempt: number): number;
  readonly clock: Clock;
  /** The token the latest connection carried: `null` signed out, `undefined` none to be had (or no connection). */
  connectionToken(): string | null | undefined;
  /** Closes the latest connection if it carries `token`: graphql-ws connects again, with the session's token. */
  replaceConnection(token: string | null | undefined): void;
}

/** A subscription that a refusal of its token does not end: it renews the token and subscribes again. */
export interface ResumableSubscription {
  /** Ends it, once: its sink gets the `outcome`'s error, or completes. A resume under way stops. */
  end(outcome?: Outcome): void;
  /** Another user signed in: it leaves its stream and subscribes again, as that user, with its attempts afresh. */
  again(): void;
}

/** A resume under way: the token the connection carried when it was refused. */
interface Resume {
  readonly refusedToken: string | null | undefined;
}

/**
 * Subscribes `payload` into `sink` and resumes it after a refusal (a close with 4401 or 4403, or an expired-token
 * error): one refresh per refused token, then a new stream on a connection with the new token.
 *
 * @remarks
 * Modelled on the `RetryableOperation` of Apollo's `RetryLink`: its state is its own (the attempts, the wait, the
 * resume under way, the last renewal) and each step is a method. A refresh failed without a verdict is tried again
 * after `host.authRetryDelay`, `host.authRetryAttempts` times; one that ended the session ends it. A token that a
 * refresh just brought, refused too, is no expiry: it ends with a `TokenRefusedError`.
 */
export function createResumableSubscription(
  host: ResumableSubscriptionHost,
  payload: SubscribePayload,
  sink: Sink<Result>,
): ResumableSubscription {
  const { auth, running, clock } = host;
  const { operationName, variables } = payload;
  // Whether the errors say the token expired, as the app's `isTokenExpiredError` given to `createTokenAuth` reads
  // them (`TOKEN_EXPIRED` by default): it receives a `CombinedGraphQLErrors`, and in place of the operation the
  // subscription's `operationName` and `variables`.
  const isExpired = getTokenAuthInternals(auth)?.isTokenExpiredError ?? isTokenExpiredError;
  const expired = (errors: unknown) =>
    Array.isArray(errors) &&
    isExpired(new CombinedGraphQLErrors({ errors }, errors), { operationName, variables } as never);
  const subscription: ResumableSubscription = { end, again };
  // Resumes in a row with no event between.
  let attempts = 0;
  // The wait before the next attempt.
  let timer: unknown;
  let resuming: Resume | undefined;
  let renewed: Renewal | undefined;
  running.add(subscription);
  // Leaves the stream that runs now.
  let leave = open();
  return subscription;

  // Subscribes one stream of it, until the next refusal; returns how to leave it: what it still delivers is dropped.
  function open(): () => void {
    let left = false;
    const dispose = host.client.subscribe(payload, {
      next(result) {
        if (left) return;
        if (expired(result.errors)) return onRefusal(result.errors);
        attempts = 0;
        renewed = undefined;
        sink.next(result);
      },
      error(error) {
        if (left) return;
        if (isRefusal(error) || expired(error)) onRefusal(error);
        else end({ error });
      },
      complete() {
        if (!left) end();
      },
    });
    return () => {
      left = true;
      // Not at once: a `complete` for this id may be on its way in the same read (it follows a result with
      // TOKEN_EXPIRED), and graphql-ws counts a release twice when its own comes after ours, dropping the
      // socket from under the other subscriptions.
      queueMicrotask(dispose);
    };
  }

  function end(outcome?: Outcome): void {
    stop();
    if (!running.delete(subscription)) return;
    if (outcome) sink.error(outcome.error);
    else sink.complete();
  }

  function again(): void {
    stop();
    attempts = 0;
    leave = open();
  }

  // Leaves the stream, and the resume under way with it.
  function stop(): void {
    clock.clearTimeout(timer);
    resuming = undefined;
    leave();
  }

  function onRefusal(refusal: unknown): void {
    // Over, or about to be: a `complete` follows a result with TOKEN_EXPIRED.
    leave();
    const refusedToken = host.connectionToken();
    // The token a refresh just brought, refused too: the server refuses fresh tokens, no refresh will help.
    if (renewed && renewed.token === refusedToken && clock.now() < renewed.until)
      return end({ error: new TokenRefusedError(refusal) });
    resuming = { refusedToken };
    retry(resuming, refusal);
  }

  // The next attempt of `resume`: the first at once, each further one after its wait; none past
  // `host.authRetryAttempts`.
  function retry(resume: Resume, failure: unknown): void {
    if (++attempts > host.authRetryAttempts) return end({ error: failure });
    if (attempts === 1) return void attempt(resume);
    timer = clock.setTimeout(() => void attempt(resume), host.authRetryDelay(attempts - 1));
  }

  async function attempt(resume: Resume): Promise<void> {
    try {
      await renew(resume.refusedToken);
    } catch (error) {
      // Ended meanwhile, or another user's login subscribed again: as below.
      if (resuming !== resume) return;
      if (SessionEndedError.is(error)) end({ error });
      else retry(resume, error);
      return;
    }
    // Ended meanwhile, or another user's login subscribed again.
    if (resuming === resume) replay(resume);
  }

  // One refresh per refused token: none when the session renewed it already.
  async function renew(refusedToken: string | null | undefined): Promise<void> {
    const token = await auth.getAccessToken().catch(() => refusedToken);
    if (token !== refusedToken) return;
    await auth.refresh('socket');
    const until = freshUntil(auth.getState(), clock.now());
    renewed = { token: await auth.getAccessToken(), until };
  }

  function replay(resume: Resume): void {
    resuming = undefined;
    // The socket that refused the token would refuse the replay too (TOKEN_EXPIRED leaves it open).
    host.replaceConnection(resume.refusedToken);
    leave = open();
  }
}
