/**
 * The `error` of a refusal: `code` for programs, `message` for people. The codes, with their HTTP status:
 * - 401 `INVALID_CREDENTIALS` (or the code the upstream gave): wrong e-mail or password;
 * - 200 `NO_SESSION` (from `/refresh`, with `accessToken: null`): no cookie, nobody signed in in this browser; not an
 *   error, so that a page load signed out logs no failed request in the browser's console;
 * - 401 `SESSION_INVALID`: a cookie that does not open (altered, or sealed with another secret): cleared;
 * - 401 `SESSION_EXPIRED`: the refresh token's life is over: cleared;
 * - 401 `SESSION_REVOKED`: the upstream refused the refresh token (used, revoked, expired): cleared;
 * - 401 `SESSION_LOST`: the handler sent that refresh token upstream before and holds no answer for it (the
 *   instance that sent it stopped before it kept one, or the answer's `graceTime` is over): cleared, without
 *   sending the token again, which the upstream would take for reuse;
 * - 401 `SESSION_ENDED`: the session was logged out meanwhile: cleared; or replaced by a sign-in in this browser,
 *   whose cookie it then keeps (the answer of a request that left before the sign-in must not clear the new one);
 * - 403 `FORBIDDEN`: no `x-token-handler` header, or an origin that is not allowed; nothing was spent;
 * - 400 `BAD_REQUEST`, 404 `NOT_FOUND`, 405 `METHOD_NOT_ALLOWED`, 413 `PAYLOAD_TOO_LARGE`;
 * - 429 `TOO_MANY_ATTEMPTS`: the `loginThrottle` refused a login (`Retry-After` says when to try again);
 * - 500 `SESSION_TOO_LARGE`: the pair does not fit in the cookies a browser keeps (see `MAX_CHUNKS`);
 * - 500 `MISCONFIGURED`: `uri` or `secret` was not set, or a GraphQL option was set beside `upstream` (the message
 *   names it);
 * - 503 `NO_REFRESH_TOKEN`: a login or a door answered an access token and no refresh token, which the cookie must
 *   hold: the upstream cannot sit behind a token handler (reported through `onError`);
 * - 503 `UPSTREAM_UNAVAILABLE`: no verdict (network, timeout, 5xx, or an uncertain refusal such as Apollo Server's
 *   `INTERNAL_SERVER_ERROR` until the upstream has answered a refresh token so three times); the cookie is kept,
 *   try again.
 */
export interface TokenHandlerError {
  readonly code: string;
  readonly message: string;
}

/** The user, as the login answer named it. */
export interface TokenHandlerUser {
  readonly id: string;
  readonly email?: string;
  readonly role?: string;
}

/** What the cookie holds, sealed. */
export interface CookieSession {
  /** The refresh token. */
  readonly r: string;
  /** The access token issued with it. */
  readonly a: string;
  /** When the handler received `a`, in ms by its own clock (the upstream's may differ). */
  readonly t: number;
  readonly u?: TokenHandlerUser;
  /** When the refresh token's life ends, in ms. */
  readonly e: number;
  /** How many refreshes of `r` in a row the upstream answered with an uncertain refusal. */
  readonly n?: number;
  /**
   * `1` when `r` is the refresh token of the pair before too: a refresh answered none, or the same (a server that
   * does not rotate them, RFC 6749 §6). The rotation cache then keys the pair by both its tokens.
   */
  readonly k?: 1;
}

/** What a rotation, or a look at a cookie, came to: a session, or a refusal (with the cookie to keep, when it changed). */
export type Outcome =
  | { readonly session: CookieSession }
  | {
      readonly error: TokenHandlerError;
      readonly status: number;
      readonly keep?: CookieSession;
      readonly replaced?: true;
    };

export const UNAVAILABLE = 503;

/** A refusal with its status, code and message. */
export const refusal = (status: number, code: string, message: string): Outcome => ({
  status,
  error: { code, message },
});

/** The refusal of a call that got no verdict: the upstream (or the cache) could not be reached. */
export const unavailable = (error: unknown): Outcome =>
  refusal(
    UNAVAILABLE,
    'UPSTREAM_UNAVAILABLE',
    `The auth service could not be reached: ${(error as Error)?.message ?? error}`,
  );
