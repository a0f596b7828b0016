import { jwtDecode } from 'jwt-decode';
import type { AdoptedPair } from '../index';
import { readAdoptedPair } from '../internal';
import { type BeginCookieSessionOptions, beginCookieSession } from './beginCookieSession';
import type { TokenHandlerUser } from './HandlerSession';
import type { TokenHandlerError } from './Outcome';

/** What `handler.adopt` resolves: the cookie to send back with the server's answer, and the user it keeps. */
export interface AdoptedSession {
  /** The `Set-Cookie` values to send back with the response (a redirect, a page): the sealed session. */
  readonly setCookie: readonly string[];
  /** The user the cookie keeps, as given; `null` when none was (the page then reads the access token's claims). */
  readonly user: TokenHandlerUser | null;
}

/** `handler.adopt`: see {@link createAdopt}. */
export type Adopt = (
  request: { readonly headers: Headers },
  pair: AdoptedPair,
  user?: TokenHandlerUser,
) => Promise<AdoptedSession>;

/**
 * Creates `handler.adopt`: a pair the app's own server obtained (an OAuth callback, an invitation link) sealed
 * into the session cookie of the request's browser, as a login's would be, the browser's previous session revoked.
 * Nothing is sent upstream about the pair: the page restores the session with one `/refresh`, as after a reload,
 * answered from the cookie while its access token is fresh.
 *
 * @throws A `TypeError` saying what is wrong with a pair that is not an access token that decodes as a JWT with
 * `exp` and a non-empty refresh token, or with a `user` without an `id`; an `Error` when the pair does not fit in
 * the cookies a browser keeps (it is revoked upstream).
 */
export function createAdopt(options: BeginCookieSessionOptions): Adopt {
  const { now } = options;
  return async (request, pair, user) => {
    const { accessToken, refreshToken } = readAdoptedPair(pair, 'handler.adopt()');
    if (user !== undefined && (typeof user?.id !== 'string' || !user.id))
      throw new TypeError('apollo-link-token-pair: handler.adopt() was handed a user without an id.');
    // Timed by its own claims: it may have been issued a while before it reached this server.
    const { iat } = jwtDecode<{ iat?: unknown }>(accessToken);
    const begun = await beginCookieSession(options, request, {
      pair: { refreshToken, accessToken },
      user,
      issuedAt: typeof iat === 'number' ? Math.min(now(), iat * 1000) : now(),
    });
    // The one outcome a new session can have is a refusal: a pair too large for the cookies (reported).
    if ('outcome' in begun) throw new Error((begun.outcome as { error: TokenHandlerError }).error.message);
    return { setCookie: begun.cookies, user: begun.session.user ?? null };
  };
}
