/** The user, as the login answer named it. */
export interface TokenHandlerUser {
  readonly id: string;
  readonly email?: string;
  readonly role?: string;
}

/** A session of the token handler, as its logic reads it: what its cookie holds, opened. */
export interface HandlerSession {
  readonly refreshToken: string;
  /** The access token issued with `refreshToken`. */
  readonly accessToken: string;
  /** When the handler received `accessToken`, in ms by its own clock (the upstream's may differ). */
  readonly receivedAt: number;
  /** The user, as the login answer (or the app, for `adopt`) named it. */
  readonly user?: TokenHandlerUser;
  /** When the refresh token's life ends, in ms: the session's, and its cookie's, end. */
  readonly refreshExpiresAt: number;
  /** How many refreshes of `refreshToken` in a row the upstream answered with an uncertain refusal. */
  readonly uncertainRefusals?: number;
  /**
   * `true` when `refreshToken` is the refresh token of the pair before too: a refresh answered none, or the same (a
   * server that does not rotate them, RFC 6749 §6). The rotation cache then keys the pair by both its tokens.
   */
  readonly refreshTokenKept?: true;
}

/** The pair of a session, as an upstream answer carries it and the rotation cache names it. */
export type SessionPair = Pick<HandlerSession, 'refreshToken' | 'accessToken' | 'refreshTokenKept'>;

/**
 * A {@link HandlerSession} as it is sealed, in a cookie or in an outcome the rotation cache keeps: a letter a field,
 * so that a large pair still fits in the cookies a browser keeps. The names are a format: instances of two versions
 * of the handler, side by side during a deploy, open each other's cookies and outcomes.
 */
export interface CookieSession {
  readonly r: string;
  readonly a: string;
  readonly t: number;
  readonly u?: TokenHandlerUser;
  readonly e: number;
  readonly n?: number;
  readonly k?: 1;
}

/** The sealed form of a session: each field under its letter. */
export const toCookieSession = ({
  refreshToken,
  accessToken,
  receivedAt,
  user,
  refreshExpiresAt,
  uncertainRefusals,
  refreshTokenKept,
}: HandlerSession): CookieSession => ({
  r: refreshToken,
  a: accessToken,
  t: receivedAt,
  u: user,
  e: refreshExpiresAt,
  n: uncertainRefusals,
  k: refreshTokenKept && 1,
});

/** The session a sealed one holds: each letter under its field's name. */
export const fromCookieSession = ({ r, a, t, u, e, n, k }: CookieSession): HandlerSession => ({
  refreshToken: r,
  accessToken: a,
  receivedAt: t,
  user: u,
  refreshExpiresAt: e,
  uncertainRefusals: n,
  refreshTokenKept: k && true,
});
