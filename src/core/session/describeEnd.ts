import { AuthRejectedError } from '../errors/AuthRejectedError';
import { SessionEndedError, type SessionEndReason } from '../errors/SessionEndedError';
import { rejectionOf, SIGNED_OUT, type SessionRecord } from './SessionRecord';
import type { SessionEndEvent } from './TokenAuthOptions';
import type { SessionEnd, TokenAuthState } from './TokenAuthState';

/** Why the live session ends. */
export interface Ending {
  readonly reason: SessionEndReason;
  /** The failure behind it: the service's refusal, or why no session could be had. */
  readonly cause?: unknown;
  /** The record that takes over at once: a login replaced the session. */
  readonly next?: SessionRecord;
  /** A session sharing the store logged out or logged in, not this one. */
  readonly elsewhere?: boolean;
}

/** What the end of a session comes to, for the shell to apply. */
export interface EndOutcome {
  /** What the ended epoch, and every operation of it, fails with. */
  readonly error: SessionEndedError;
  /** The state to show when no record takes over. */
  readonly signedOut: TokenAuthState;
  /** What `onSessionEnd` is told, if anything: not for a session that never had a pair. */
  readonly event?: SessionEndEvent;
  /** Present when the state's `ended` changes: to this (`undefined` clears it). */
  readonly remember?: { readonly ended: SessionEnd | undefined };
}

/** Describes the end of `was` (the live record, if any) at `now`. */
export function describeEnd(was: SessionRecord | null, ending: Ending, now: number): EndOutcome {
  const { reason, cause, next, elsewhere = false } = ending;
  const error = new SessionEndedError(reason, cause);
  // Signed out with the reason an app can show: a rejection, or why a session could not be had at all; not the
  // refusal that says nobody is signed in (a first visit, without the server's cookie).
  const signedOut =
    reason === 'rejected'
      ? { ...SIGNED_OUT, error }
      : cause instanceof Error && !AuthRejectedError.is(cause)
        ? { ...SIGNED_OUT, error: cause }
        : SIGNED_OUT;
  if (!was || reason === 'no-session') return { error, signedOut };
  const said = AuthRejectedError.is(cause) && cause.message;
  const facts = {
    elsewhere,
    ...(reason === 'rejected' && { rejection: rejectionOf(was, cause, now), ...(said && { message: said }) }),
  };
  const event: SessionEndEvent = { reason, error: cause, ...facts };
  // Kept for a user the app knew, or a stored session (a token handler's cookie) refused at restore: not for a
  // cookie that turns out to be logged out. A login here starts afresh.
  if (!was.pair.accessToken && reason !== 'rejected') return { error, signedOut, event };
  const ended = next && !elsewhere ? undefined : { reason, ...facts, at: now };
  return { error, signedOut, event, remember: { ended } };
}
