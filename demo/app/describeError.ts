import { AuthRejectedError, AuthRequestError, SessionEndedError } from 'apollo-link-token-pair';

/** What the server said, by `extensions.code` (or the token handler's `error.code`), in a person's words. */
const REJECTIONS: Record<string, string> = {
  INVALID_CREDENTIALS: 'Wrong e-mail or password.',
  SESSION_REVOKED: 'The server ended your session. Please sign in again.',
  SESSION_EXPIRED: 'Your sign-in has expired. Please sign in again.',
  SESSION_INVALID: 'Your sign-in is no longer valid. Please sign in again.',
  INVALID_REFRESH_TOKEN: 'The server ended your session. Please sign in again.',
};

/**
 * An error the demo shows, as a sentence a person understands ("Wrong e-mail or password.") instead of the
 * library's message for developers ("login was rejected: Invalid email or password").
 */
export function describeError(error: unknown): string {
  if (AuthRejectedError.is(error)) {
    return (
      (error.code && REJECTIONS[error.code]) ??
      (error.operation.startsWith('login') ? 'Wrong e-mail or password.' : 'The server refused. Please sign in again.')
    );
  }
  if (AuthRequestError.is(error)) {
    if (error.status === undefined) return 'The server cannot be reached. Check your connection and try again.';
    if (error.status >= 500) return 'The sign-in service is not answering right now. Try again in a moment.';
    return `The server could not handle the request (HTTP ${error.status}). Try again.`;
  }
  if (SessionEndedError.is(error))
    return error.reason === 'no-session' ? 'You are not signed in.' : 'Your session has ended. Please sign in again.';
  if (error instanceof TypeError && /fetch|network/i.test(error.message))
    return 'The server cannot be reached. Check your connection and try again.';
  return 'Something went wrong. Try again.';
}
