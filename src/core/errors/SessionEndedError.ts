import { BrandedError } from './BrandedError';

/**
 * Why a session ended:
 * - `logout`: `logout()` was called, here or in a session sharing the store (another tab); with a token
 *   handler, also a cookie whose session was logged out elsewhere (`SESSION_ENDED`);
 * - `rejected`: the service refused the refresh token (used, revoked or expired: `SessionEnd.rejection` tells
 *   which), or answered a refresh with a pair that cannot be used; with a token handler, any refusal of its
 *   cookie (`SESSION_EXPIRED`, `SESSION_REVOKED`, `SESSION_INVALID`) or no session found mid-way;
 * - `replaced`: a login started another session: here (as anyone), or in a session sharing the store as another
 *   user (a login there as the same user is followed, not ended). Operations sent in the old session are not
 *   replayed in the new one;
 * - `no-session`: nobody was logged in to begin with: `refresh()` or an operation needing a refresh found no
 *   session, or a token handler found no session cookie (`NO_SESSION`). No session ended, so `onSessionEnd` is
 *   not called for it.
 */
export type SessionEndReason = 'logout' | 'rejected' | 'replaced' | 'no-session';

/**
 * The error an operation receives when it needed a refresh but there is no session to refresh: the refresh
 * token was rejected, the user logged out or someone else logged in while it waited, or nobody was logged in.
 * `reason` says which ({@link SessionEndReason}).
 *
 * @remarks
 * The app should show its login screen; `state.ended` says why, for the user. `cause` holds the
 * `AuthRejectedError` when the service rejected the refresh token.
 */
export class SessionEndedError extends BrandedError {
  static override brand = 'SessionEndedError';
  /** Tells whether `error` is a {@link SessionEndedError}, even one from another copy of this package. */
  declare static is: (error: unknown) => error is SessionEndedError;

  /** Why the session ended. */
  declare readonly reason: SessionEndReason;

  constructor(reason: SessionEndReason, cause?: unknown) {
    super(reason === 'no-session' ? 'You are not signed in.' : 'Your session has ended. Please sign in again.', cause);
    this.reason = reason;
  }
}
