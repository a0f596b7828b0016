import { jwtDecode } from 'jwt-decode';
import { AuthRequestError } from '../errors/AuthRequestError';
import type { TokenPair } from './TokenPair';

/** The claims of an access token, as decoded (not verified: only the server can verify). */
export type TokenClaims = Readonly<Record<string, unknown>> & { readonly exp?: number; readonly iat?: number };

/**
 * Decodes an access token's claims.
 *
 * @throws An `Error` that names the problem when the token is not a JWT, its payload is not an object, or
 * `exp` is not after `iat` (a token that would be renewed in a loop).
 */
export function decodeAccessToken(token: string): TokenClaims {
  const claims = jwtDecode<TokenClaims>(token);
  if (Object(claims) !== claims || Array.isArray(claims) || claims.exp! <= claims.iat!) {
    throw new Error('Invalid token specified: not a JSON object with exp after iat');
  }
  return claims;
}

/**
 * Whether `value` can stand for a stored pair: it has a refresh token, and an access token that may be empty
 * (a split store keeps none across restarts; the session then renews it first).
 */
export function isTokenPair(value: unknown): value is TokenPair {
  const pair = value as Partial<TokenPair> | null | undefined;
  return typeof pair?.accessToken === 'string' && typeof pair.refreshToken === 'string' && pair.refreshToken !== '';
}

/**
 * Checks that `value` is a token pair with a decodable access token, and returns the pair, received at `now`
 * unless the answer says its access token is older (`age`, in ms). An answer without a refresh token keeps `kept`
 * when there is one: the session's own (a service that does not rotate it, RFC 6749 §6), or the access token
 * standing in for it (a service that keeps the refresh token in its own cookie).
 *
 * @throws {@link AuthRequestError} naming what is wrong, so that nothing malformed is ever stored.
 */
export function readTokenPair(value: unknown, operation: string, now: number, kept?: string): TokenPair {
  const missing = (name: string) => new AuthRequestError(`${operation} answered without a valid ${name}.`, operation);
  const answer = (value ?? {}) as { accessToken?: unknown; refreshToken?: unknown; age?: unknown };
  const { accessToken } = answer;
  if (!accessToken || typeof accessToken !== 'string') throw missing('accessToken');
  const pair = { accessToken, refreshToken: answer.refreshToken ?? kept };
  if (!isTokenPair(pair)) throw missing('refreshToken');
  try {
    decodeAccessToken(accessToken);
    return { ...pair, receivedAt: now - Math.max(0, Number(answer.age) || 0) };
  } catch (cause) {
    throw new AuthRequestError(
      `${operation} answered with an access token that is not a valid JWT.`,
      operation,
      undefined,
      cause,
    );
  }
}

/**
 * Whether `a` and `b` are the same pair: the same refresh token, and the same access token where both are known (a
 * split store holds none after a restart). A service that does not rotate the refresh token renews the access
 * token alone, so the refresh token is not enough.
 */
export function isSamePair(a: TokenPair | null | undefined, b: TokenPair | null | undefined): boolean {
  if (!a || !b) return a === b;
  return a.refreshToken === b.refreshToken && (a.accessToken === b.accessToken || !a.accessToken || !b.accessToken);
}

/**
 * Checks a pair the app hands over (`adopt`): a refresh token, and an access token that decodes as a JWT with
 * `exp`. It carries no `receivedAt`: it was not issued for this client just now, so it is timed by its `exp`.
 * `caller` names the call in the message (`handler.adopt()` on a token handler).
 *
 * @throws A `TypeError` that says what is wrong with the pair.
 */
export function readAdoptedPair(value: unknown, caller = 'adopt()'): TokenPair {
  const wrong = (what: string) => new TypeError(`apollo-link-token-pair: ${caller} was handed a pair ${what}.`);
  const pair = (value ?? {}) as Partial<TokenPair>;
  if (!pair.accessToken || typeof pair.accessToken !== 'string') throw wrong('without an accessToken');
  if (!isTokenPair(pair)) throw wrong('without a refreshToken');
  let exp: number | undefined;
  try {
    exp = decodeAccessToken(pair.accessToken).exp;
  } catch (cause) {
    throw wrong(`whose accessToken is not a valid JWT (${(cause as Error).message})`);
  }
  // Nothing would tell when it dies.
  if (typeof exp !== 'number') throw wrong('whose accessToken has no exp claim');
  return { accessToken: pair.accessToken, refreshToken: pair.refreshToken };
}
