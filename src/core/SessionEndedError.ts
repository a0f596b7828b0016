import { BrandedError } from './BrandedError';

/**
 * Why a session ended:
 * - `logout`: `logout()` was called, here or in a session sharing the store;
 * - `rejected`: the service refused the refresh token (used, revoked or expired), or answered a refresh with a
 *   pair that cannot be used;
 * - `replaced`: a login (here or in a session sharing the store) started another session;
 * - `no-session`: nobody was logged in to begin with.
 */
export type SessionEndReason = 'logout' | 'rejected' | 'replaced' | 'no-session';

/**
 * The error an operation receives when it needed a refresh but there is no session to refresh: the refresh
 * token was rejected, the user logged out while it waited, or nobody was logged in.
 *
 * @remarks
 * The app should show its login screen. `cause` holds the `AuthRejectedError` when the service rejected the
 * refresh token.
 */
export class SessionEndedError extends BrandedError {
  static override brand = 'SessionEndedError';
  /** Tells whether `error` is a {@link SessionEndedError}, even one from another copy of this package. */
  declare static is: (error: unknown) => error is SessionEndedError;

  constructor(
    /** Why the session ended. */
    readonly reason: SessionEndReason,
    cause?: unknown,
  ) {
    super(reason === 'no-session' ? 'No session to refresh: log in first.' : `The session ended (${reason}): log in again.`, cause);
  }
}
