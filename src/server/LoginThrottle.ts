/** What a {@link LoginThrottle} is told of a login, or of a sign-in through a door of `signIns`. */
export interface LoginAttempt {
  /**
   * The e-mail the login names, as sent (compare it lower-cased and trimmed, as your service does); for a door,
   * its `variables.email` when that is a string, else `''` (a second factor's code, a social ID token).
   */
  readonly email: string;
  /**
   * The sign-in door's name (a key of `signIns`), so that a throttle can count code guesses by door; absent for
   * `/login`.
   */
  readonly door?: string;
  /** The client's address (behind `trustProxy`, the one the proxy vouches for), or `undefined` when unknown. */
  readonly address: string | undefined;
  /** The request, for anything else the decision needs. */
  readonly request: Request;
}

/**
 * The token handler's login throttle (`loginThrottle` of `createTokenHandler`): the handler is the only way
 * browsers reach the service's login and sign-in doors, so it is where password and code guessing is slowed down. Keep its counts where
 * every instance sees them (Redis): the recipe in docs/token-handler.md uses rate-limiter-flexible.
 */
export interface LoginThrottle {
  /**
   * Called before a login (or a door's sign-in) is sent upstream: resolve `{ retryAfter }` (ms) to refuse it (HTTP
   * 429 `TOO_MANY_ATTEMPTS` with `Retry-After`, nothing sent upstream), or nothing to let it through. A throttle
   * that fails lets the attempt through, and the failure goes to `onError`.
   */
  check(attempt: LoginAttempt): { retryAfter: number } | void | Promise<{ retryAfter: number } | void>;
  /**
   * Called once the upstream has given its verdict on a login let through: count `'refused'`, forget on
   * `'accepted'` (a session began). A door's step that begins no session (a code sent, a second factor required)
   * is no verdict, and is not recorded.
   */
  record?(attempt: LoginAttempt, outcome: 'accepted' | 'refused'): void | Promise<void>;
}
