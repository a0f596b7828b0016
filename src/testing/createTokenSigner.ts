import { importHs256Key, isExpired, signHs256, verifyHs256 } from './hs256';

/** The claims of an access token beyond `iat` and `exp`. */
export interface AccessClaims {
  sub: string;
  email: string;
  role: string;
  sid: string;
  jti: string;
  /** Serial number of the token within its server, compared with the mark of `expireAllAccessTokens`. */
  n: number;
  clubPermissions?: readonly string[];
  orgPermissions?: readonly string[];
}

/** The claims of a refresh token beyond `iat` and `exp`. */
export interface RefreshClaims {
  sub: string;
  sid: string;
  jti: string;
}

/** Why a token was refused: past its `exp`, or anything else (signature, shape, `typ`). */
export type Refusal = 'expired' | 'invalid';

/** Signs and verifies the server's HS256 tokens against one secret and one clock. */
export interface TokenSigner {
  signAccess(claims: AccessClaims, ttlSeconds: number): Promise<string>;
  signRefresh(claims: RefreshClaims, ttlSeconds: number): Promise<string>;
  verifyAccess(token: string): Promise<(AccessClaims & { exp?: number }) | Refusal>;
  verifyRefresh(token: string): Promise<(RefreshClaims & { exp?: number }) | Refusal>;
}

/**
 * Creates the token signer of one server; `now` (ms) sets `iat`/`exp` and is the clock of verification.
 *
 * @remarks
 * HS256 through WebCrypto, so the server runs unchanged in Node and in a browser (under MSW).
 */
export function createTokenSigner(secret: Uint8Array, now: () => number): TokenSigner {
  const key = importHs256Key(secret);

  async function sign(claims: Record<string, unknown>, ttlSeconds: number): Promise<string> {
    const iat = Math.floor(now() / 1000);
    return signHs256(await key, { ...claims, iat, exp: iat + ttlSeconds });
  }

  async function verify(token: string, typ: 'access' | 'refresh'): Promise<Record<string, unknown> | Refusal> {
    const claims = await verifyHs256(await key, token);
    if (claims === 'invalid') return claims;
    const expired = isExpired(claims['exp'], now());
    if (expired !== false) return expired === true ? 'expired' : expired;
    const wellFormed =
      claims['typ'] === typ &&
      typeof claims['sub'] === 'string' &&
      typeof claims['sid'] === 'string' &&
      typeof claims['jti'] === 'string';
    return wellFormed ? claims : 'invalid';
  }

  return {
    signAccess: (claims, ttlSeconds) => sign({ ...claims, typ: 'access' }, ttlSeconds),
    signRefresh: (claims, ttlSeconds) => sign({ ...claims, typ: 'refresh' }, ttlSeconds),
    async verifyAccess(token) {
      const claims = await verify(token, 'access');
      if (typeof claims === 'string') return claims;
      return typeof claims['n'] === 'number' ? (claims as unknown as AccessClaims & { exp?: number }) : 'invalid';
    },
    async verifyRefresh(token) {
      const claims = await verify(token, 'refresh');
      return claims as (RefreshClaims & { exp?: number }) | Refusal;
    },
  };
}
