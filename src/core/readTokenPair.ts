import { jwtDecode } from 'jwt-decode';
import { AuthRequestError } from './AuthRequestError';
import type { TokenPair } from './TokenStore';

/** The claims of an access token, as decoded (not verified: only the server can verify). */
export type TokenClaims = Readonly<Record<string, unknown>> & { readonly exp?: number; readonly iat?: number };

/**
 * Decodes an access token's claims.
 *
 * @throws An `Error` that names the problem when the token is not a JWT, its payload is not an object, or
 * `exp`/`iat` are not numbers or `exp` is not after `iat`.
 */
export function decodeAccessToken(token: string): TokenClaims {
  const claims: unknown = jwtDecode(token);
  if (claims === null || typeof claims !== 'object' || Array.isArray(claims)) {
    throw new Error('Invalid token specified: the payload is not a JSON object');
  }
  const { exp, iat } = claims as TokenClaims;
  if ((exp !== undefined && !Number.isFinite(exp)) || (iat !== undefined && !Number.isFinite(iat))) {
    throw new Error('Invalid token specified: exp and iat must be numbers');
  }
  if (exp !== undefined && iat !== undefined && exp <= iat) {
    throw new Error('Invalid token specified: exp is not after iat');
  }
  return claims as TokenClaims;
}

/**
 * Checks that `value` is a token pair with a decodable access token, and returns both.
 *
 * @throws {@link AuthRequestError} naming what is wrong, so that nothing malformed is ever stored.
 */
export function readTokenPair(value: unknown, operation: string): { pair: TokenPair; claims: TokenClaims } {
  const { accessToken, refreshToken } = (value ?? {}) as Partial<Record<keyof TokenPair, unknown>>;
  if (typeof accessToken !== 'string' || accessToken === '') {
    throw new AuthRequestError(`${operation} answered without an accessToken.`, { operation });
  }
  if (typeof refreshToken !== 'string' || refreshToken === '') {
    throw new AuthRequestError(`${operation} answered without a refreshToken.`, { operation });
  }
  try {
    return { pair: { accessToken, refreshToken }, claims: decodeAccessToken(accessToken) };
  } catch (cause) {
    throw new AuthRequestError(`${operation} answered with an access token that is not a valid JWT.`, {
      operation,
      cause,
    });
  }
}
