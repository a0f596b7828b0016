import { AuthRejectedError, AuthRequestError, SessionEndedError } from 'apollo-link-token-pair';

/** What the server said, by `extensions.code` (or the token handler's `error.code`), in a person's words. */
const REJECTIONS: Record<string, string> = {
  INVALID_CREDENTIALS: 'Wrong e-mail or password.',
  SESSION_REVOKED: 'The server ended your session. Please sign in again.',
  SESSION_EXPIRED: 'Your sign-in has expired. Please sign in again.',
  SESSION_INVALID: 'Your sign-in is no longer valid. Please sign in again.',
  INVALID_REFRESH_TOKEN: 'The server ended your session. Please sign in again.',
  SECOND_FACTOR_REQUIRED: 'This account has a second factor.',
};

/** The server's own words as a sentence: "password must be at least 8 characters" → "Password must be …." */
const sentence = (words: string) => {
  const text = words.trim();
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}${/[.!?]$/.test(text) ? '' : '.'}`;
};

/**
 * An error the demo shows, as a sentence a person understands ("Wrong e-mail or password.") instead of the
 * library's message for developers ("login was rejected: Invalid email or password").
 */
export function describeError(error: unknown): string {
  if (AuthRejectedError.is(error)) {
    // A sign-in door's refusal (the token handler's `sign-in`) is told in the server's words: "An account with
    // ada@demo.test exists already", "Wrong sign-in code". A wrong password reads as at the login.
    if (error.operation === 'sign-in' && error.code !== 'INVALID_CREDENTIALS') return sentence(error.message);
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
