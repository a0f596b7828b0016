/** What a {@link LoginThrottle} is told of a login. */
export interface LoginAttempt {
  /** The e-mail the login names, as sent (compare it lower-cased and trimmed, as your service does). */
  readonly email: string;
  /** The client's address (behind `trustProxy`, the one the proxy vouches for), or `undefined` when unknown. */
  readonly address: string | undefined;
  /** The request, for anything else the decision needs. */
  readonly request: Request;
}

/**
 * The token handler's login throttle (`loginThrottle` of `createTokenHandler`): the handler is the only way
 * browsers reach the service's login, so it is where password guessing is slowed down. Keep its counts where
 * every instance sees them (Redis): the recipe in docs/token-handler.md uses rate-limiter-flexible.
 */
export interface LoginThrottle {
  /**
   * Called before a login is sent upstream: resolve `{ retryAfter }` (ms) to refuse it (HTTP 429
   * `TOO_MANY_ATTEMPTS` with `Retry-After`, nothing sent upstream), or nothing to let it through. A throttle that
   * fails lets the login through, and the failure goes to `onError`.
   */
  check(attempt: LoginAttempt): { retryAfter: number } | void | Promise<{ retryAfter: number } | void>;
  /** Called once the upstream has answered a login let through: count `'refused'`, forget on `'accepted'`. */
  record?(attempt: LoginAttempt, outcome: 'accepted' | 'refused'): void | Promise<void>;
}
