import type { TokenClaims } from './readTokenPair';

/** The signed-in user, as far as the client knows it. */
export interface TokenUser {
  /** The user's id: from the login answer, else the access token's `sub` claim. */
  readonly id: string;
  /** The e-mail: from the login answer, else the `email` claim when the token has one. */
  readonly email?: string;
  /** The role embedded in the access token (the `roleClaim` option names the claim; default `role`). */
  readonly role: string | undefined;
  /** Every claim of the current access token, decoded but not verified: for permission checks in the UI. */
  readonly claims: TokenClaims;
}

/**
 * What the session looks like now.
 *
 * - `loading`: the stored pair is being read (or renewed because its access token was dead).
 * - `authenticated`: there is a pair; `user` and, when the token has `exp`, `expiresAt` are set.
 * - `unauthenticated`: no pair.
 */
export interface TokenAuthState {
  readonly status: 'loading' | 'authenticated' | 'unauthenticated';
  readonly user: TokenUser | null;
  /** When the access token expires, in local ms since the epoch. */
  readonly expiresAt?: number;
  /** When the proactive refresh is due, in local ms since the epoch. */
  readonly refreshAt?: number;
  /**
   * The last login failure, or the `SessionEndedError` of a session the service ended; cleared by the next
   * successful login (and by `logout()`).
   */
  readonly error?: Error;
  /**
   * Set while a refresh that failed with no verdict (network, 5xx, timeout) waits to be retried: when (`at`,
   * local ms; absent while the app is offline and waits to come back), why, and which attempt is next. The
   * session is still `authenticated`: show "reconnecting", not a login form. Cleared by the next rotation.
   */
  readonly retry?: { readonly at: number | undefined; readonly error: Error; readonly attempt: number };
}
