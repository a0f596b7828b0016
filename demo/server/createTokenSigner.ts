import { SignJWT, jwtVerify, type JWTPayload } from 'jose';

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
  verifyAccess(token: string): Promise<AccessClaims | Refusal>;
  verifyRefresh(token: string): Promise<RefreshClaims | Refusal>;
}

/** Creates the token signer of one server; `now` (ms) sets `iat`/`exp` and is the clock of verification. */
export function createTokenSigner(secret: Uint8Array, now: () => number): TokenSigner {
  async function sign(
    { sub, jti, ...claims }: { sub: string; jti: string } & JWTPayload,
    ttlSeconds: number,
  ): Promise<string> {
    const iat = Math.floor(now() / 1000);
    return new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(sub)
      .setJti(jti)
      .setIssuedAt(iat)
      .setExpirationTime(iat + ttlSeconds)
      .sign(secret);
  }

  async function verify(token: string, typ: 'access' | 'refresh'): Promise<JWTPayload | Refusal> {
    try {
      const { payload } = await jwtVerify(token, secret, {
        algorithms: ['HS256'],
        currentDate: new Date(now()),
        clockTolerance: 0,
      });
      const wellFormed =
        payload['typ'] === typ &&
        typeof payload.sub === 'string' &&
        typeof payload['sid'] === 'string' &&
        typeof payload.jti === 'string';
      return wellFormed ? payload : 'invalid';
    } catch (error) {
      return (error as { code?: unknown }).code === 'ERR_JWT_EXPIRED' ? 'expired' : 'invalid';
    }
  }

  return {
    signAccess: (claims, ttlSeconds) => sign({ ...claims, typ: 'access' }, ttlSeconds),
    signRefresh: (claims, ttlSeconds) => sign({ ...claims, typ: 'refresh' }, ttlSeconds),
    async verifyAccess(token) {
      const payload = await verify(token, 'access');
      if (typeof payload === 'string') return payload;
      return typeof payload['n'] === 'number' ? (payload as JWTPayload & AccessClaims) : 'invalid';
    },
    async verifyRefresh(token) {
      const payload = await verify(token, 'refresh');
      return payload as RefreshClaims | Refusal;
    },
  };
}
