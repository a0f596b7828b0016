import type { TokenClaims } from '../tokens/readTokenPair';
import type { SessionEndReason } from '../errors/SessionEndedError';
import type { RefreshTrigger } from './refreshTriggers';

/** The signed-in user, as far as the client knows it. */
export interface TokenUser {
  /** The user's id: from the login answer, else the access token's `sub` claim (or what `readUser` says). */
  readonly id: string;
  /** The e-mail: from the login answer, else the `email` claim when the token has one. */
  readonly email?: string;
  /**
   * The role embedded in the access token (the `roleClaim` option names the claim; default `role`), or what the
   * app's `readUser` made of its claims: the first of `roles`.
   */
  readonly role: string | undefined;
  /**
   * Every role the user holds: a list claim (`roles[]`), or the one `role`; what `hasRole` and `<AuthGate role>`
   * read. The session always sets it; a state built by hand may leave it out, and `role` then counts alone.
   */
  readonly roles?: readonly string[];
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
  /**
   * Set while a refresh that was asked for waits for the refresh floor before it goes out: when it goes (`at`,
   * local ms) and what asked for it. For a "refreshing in N s" indicator; a retry's wait is in `retry`.
   */
  readonly waiting?: { readonly at: number; readonly trigger: RefreshTrigger };
  /**
   * How the last signed-in session ended, for the app to say why the user is signed out. Set whenever a session
   * whose user was known ends, or a stored session (a token handler's cookie) is refused at restore ("your
   * session expired" after a month away), and kept until the next login (here, or in a session sharing the
   * store that this one follows). A login here that replaces the session does not set it.
   */
  readonly ended?: SessionEnd;
}

/**
 * Why and how a session ended, as {@link TokenAuthState.ended} keeps it.
 *
 * @example Tell the user why they are signed out:
 * ```ts
 * function why({ reason, elsewhere, rejection }: SessionEnd): string {
 *   if (reason === 'rejected') return rejection === 'expired' ? 'Your session expired.' : 'Your session was ended by the server.';
 *   if (reason === 'replaced') return 'Someone else signed in in another tab.';
 *   return elsewhere ? 'You signed out in another tab.' : 'You signed out.';
 * }
 * ```
 */
export interface SessionEnd {
  /**
   * - `logout`: `logout()` was called, here or (`elsewhere`) in a session sharing the store;
   * - `rejected`: the service refused the refresh token (see `rejection`), or answered a refresh with a pair that
   *   cannot be used;
   * - `replaced`: a session sharing the store signed in as another user (`elsewhere`); the state already shows
   *   that user. A login as the same user elsewhere is followed silently and ends nothing.
   * - `no-session`: never kept here (nobody was signed in).
   */
  readonly reason: SessionEndReason;
  /**
   * Whether another session sharing the store (another tab, through `createBroadcastTokenStore`, a token
   * handler's tabs, or `shareTokenStore`) did it: its logout or its login. Always `false` for `rejected`.
   */
  readonly elsewhere: boolean;
  /**
   * For `rejected` only: `expired` when the refresh token had outlived its own `exp` (read from the token when it
   * is a JWT, by the session's clock corrected by the skew learnt from the access token) or the token handler
   * answered `SESSION_EXPIRED`; `revoked` otherwise (revoked, reused, unknown to the service, logged out).
   */
  readonly rejection?: 'expired' | 'revoked';
  /**
   * For `rejected` only: the service's own words for the refusal, when it sent any ("Invalid refresh token"),
   * for an app that shows them.
   */
  readonly message?: string;
  /** When it ended, in local ms since the epoch (the session's clock). */
  readonly at: number;
}
