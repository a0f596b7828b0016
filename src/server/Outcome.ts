import type { HandlerSession } from './HandlerSession';

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

/** A refusal: its status, and the `error` the page is answered. */
export interface Refusal {
  readonly error: TokenHandlerError;
  readonly status: number;
  /** A refusal of a session that a sign-in in this browser replaced: the new session's cookie stays. */
  readonly replaced?: true;
}

/**
 * What a rotation, or a look at a cookie, came to: a session, or a refusal (with the session to keep in the cookie,
 * when it changed).
 */
export type Outcome = { readonly session: HandlerSession } | (Refusal & { readonly keep?: HandlerSession });

/**
 * An outcome the rotation cache keeps for every request that presents the token it spent: a session, or a refusal
 * (a session to keep in the cookie is the answer of one request only). `Session`: `CookieSession` once sealed.
 */
export type KeptOutcome<Session = HandlerSession> = { readonly session: Session } | Refusal;

export const UNAVAILABLE = 503;

/** A refusal with its status, code and message. */
export const refusal = (status: number, code: string, message: string): Refusal => ({
  status,
  error: { code, message },
});

/** The refusal of a call that got no verdict: the upstream (or the cache) could not be reached. */
export const unavailable = (error: unknown): Refusal =>
  refusal(
    UNAVAILABLE,
    'UPSTREAM_UNAVAILABLE',
    `The auth service could not be reached: ${(error as Error)?.message ?? error}`,
  );
