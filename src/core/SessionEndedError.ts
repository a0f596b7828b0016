import { hasBrand, setBrand } from './brand';

/**
 * Why a session ended: `logout` was called, or the service `rejected` the refresh token (used, revoked or
 * expired), or there was no session to begin with.
 */
export type SessionEndReason = 'logout' | 'rejected' | 'no-session';

/**
 * The error an operation receives when it needed a refresh but there is no session to refresh: the refresh
 * token was rejected, the user logged out while it waited, or nobody was logged in.
 *
 * @remarks
 * The app should show its login screen. `cause` holds the {@link AuthRejectedError} when the service
 * rejected the refresh token.
 */
export class SessionEndedError extends Error {
  /** Tells whether `error` is a {@link SessionEndedError}, even one from another copy of this package. */
  static is(error: unknown): error is SessionEndedError {
    return hasBrand(error, 'SessionEndedError');
  }

  /** Why the session ended. */
  readonly reason: SessionEndReason;

  constructor(reason: SessionEndReason, options?: { cause?: unknown }) {
    super(MESSAGES[reason], { cause: options?.cause });
    this.name = 'SessionEndedError';
    this.reason = reason;
    setBrand(this, 'SessionEndedError');
  }
}

const MESSAGES: Record<SessionEndReason, string> = {
  logout: 'The session ended: logout() was called while this operation waited for a token refresh.',
  rejected: 'The session ended: the service rejected the refresh token (used, revoked or expired). Log in again.',
  'no-session': 'There is no session to refresh: log in first.',
};
