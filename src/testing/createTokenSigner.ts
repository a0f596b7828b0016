import { fromBase64Url, toBase64Url } from '../shared/base64url';

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

const HEADER = toBase64Url(new TextEncoder().encode(JSON.stringify({ alg: 'HS256', typ: 'JWT' })));

/**
 * Creates the token signer of one server; `now` (ms) sets `iat`/`exp` and is the clock of verification.
 *
 * @remarks
 * HS256 through WebCrypto, so the server runs unchanged in Node and in a browser (under MSW).
 */
export function createTokenSigner(secret: Uint8Array, now: () => number): TokenSigner {
  const key = crypto.subtle.importKey(
    'raw',
    secret as Uint8Array<ArrayBuffer>,
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign', 'verify'],
  );

  async function sign(claims: Record<string, unknown>, ttlSeconds: number): Promise<string> {
    const iat = Math.floor(now() / 1000);
    const payload = toBase64Url(new TextEncoder().encode(JSON.stringify({ ...claims, iat, exp: iat + ttlSeconds })));
    const signature = await crypto.subtle.sign('HMAC', await key, new TextEncoder().encode(`${HEADER}.${payload}`));
    return `${HEADER}.${payload}.${toBase64Url(new Uint8Array(signature))}`;
  }

  async function verify(token: string, typ: 'access' | 'refresh'): Promise<Record<string, unknown> | Refusal> {
    const [header, payload, signature, ...rest] = token.split('.');
    if (header === undefined || payload === undefined || signature === undefined || rest.length > 0) return 'invalid';
    // Only the base64url alphabet: `atob` would take `+` and `/` too, and a token spelled two ways is not this one.
    if (/[^\w.-]/.test(token)) return 'invalid';
    let claims: Record<string, unknown>;
    try {
      if ((JSON.parse(decode(header)) as { alg?: unknown }).alg !== 'HS256') return 'invalid';
      const valid = await crypto.subtle.verify(
        'HMAC',
        await key,
        fromBase64Url(signature),
        new TextEncoder().encode(`${header}.${payload}`),
      );
      if (!valid) return 'invalid';
      claims = JSON.parse(decode(payload)) as Record<string, unknown>;
    } catch {
      return 'invalid';
    }
    if (typeof claims !== 'object' || claims === null) return 'invalid';
    const { exp } = claims;
    // As jose judges it: a token is dead from the second of its `exp` on, and one without `exp` never dies.
    if (exp !== undefined && typeof exp !== 'number') return 'invalid';
    if (exp !== undefined && exp <= Math.floor(now() / 1000)) return 'expired';
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

function decode(text: string): string {
  return new TextDecoder().decode(fromBase64Url(text));
}
