import { AuthRequestError } from './AuthRequestError';

/**
 * A login refused for now, before the service was asked: too many attempts (a token handler's `loginThrottle`
 * answered HTTP 429). `retryAfter` says how long to wait, in ms; the message says it to people. It is an
 * `AuthRequestError` (no verdict on the credentials: try again later) of status 429.
 *
 * @example
 * ```ts
 * declare const auth: TokenAuth;
 * try {
 *   await auth.login('ada@example.com', 'secret');
 * } catch (error) {
 *   if (LoginThrottledError.is(error)) console.log(`Try again in ${Math.ceil(error.retryAfter / 1000)} s`);
 * }
 * ```
 */
export class LoginThrottledError extends AuthRequestError {
  static override brand = 'LoginThrottledError';
  /** Tells whether `error` is a {@link LoginThrottledError}, even one from another copy of this package. */
  declare static is: (error: unknown) => error is LoginThrottledError;

  constructor(
    message: string,
    /** How long to wait before the next attempt, in ms. */
    readonly retryAfter: number,
  ) {
    super(message, 'login', 429);
  }
}
