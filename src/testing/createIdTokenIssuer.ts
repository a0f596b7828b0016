import { importHs256Key, isExpired, signHs256, verifyHs256 } from './hs256';

/** What {@link TestAuthServer.signIdToken} puts in an ID token of the test identity provider. */
export interface IdTokenOptions {
  /** The `email` claim: the account it signs in, or signs up. */
  readonly email: string;
  /** The `sub` claim, the provider's id of the person. @defaultValue `email` */
  readonly sub?: string;
  /** The `name` claim. @defaultValue none */
  readonly name?: string;
  /** Seconds from now (the server's clock) to its `exp`; `0` or less for one expired already. @defaultValue `3600` */
  readonly expiresIn?: number;
  /** The `iss` claim: another one makes a token the server refuses. @defaultValue `'https://id.test-auth-server.invalid'` */
  readonly issuer?: string;
  /** The `aud` claim: another one makes a token the server refuses. @defaultValue `'apollo-link-token-pair-test'` */
  readonly audience?: string;
}

/** The claims of an ID token the server accepts. */
export interface IdTokenClaims {
  email: string;
  sub: string;
  name?: string;
}

/** The test identity provider of one server: it signs ID tokens, and the server verifies them. */
export interface IdTokenIssuer {
  sign(options: IdTokenOptions): Promise<string>;
  /** The claims of a token this provider signed for this server, still valid; or why not, in words. */
  verify(token: string): Promise<IdTokenClaims | { refused: string }>;
}

/** The `iss` of every ID token of the test identity provider. */
export const ID_TOKEN_ISSUER = 'https://id.test-auth-server.invalid';
/** The `aud` of every ID token of the test identity provider: the app it signs people in to. */
export const ID_TOKEN_AUDIENCE = 'apollo-link-token-pair-test';

/**
 * Creates a test identity provider with a key of its own (a random HS256 secret, apart from the server's), on the
 * server's clock (`now`, ms).
 */
export function createIdTokenIssuer(now: () => number): IdTokenIssuer {
  const key = importHs256Key(crypto.getRandomValues(new Uint8Array(32)));
  return {
    async sign({ email, sub, name, expiresIn = 3600, issuer = ID_TOKEN_ISSUER, audience = ID_TOKEN_AUDIENCE }) {
      const iat = Math.floor(now() / 1000);
      const claims = { iss: issuer, aud: audience, sub: sub ?? email, email, name };
      return signHs256(await key, { ...claims, iat, exp: iat + expiresIn });
    },
    async verify(token) {
      const claims = await verifyHs256(await key, token);
      if (claims === 'invalid') return { refused: 'ID token not signed by the test identity provider' };
      const { iss, aud, sub, email, name, exp } = claims;
      if (iss !== ID_TOKEN_ISSUER) return { refused: `ID token issuer is not ${ID_TOKEN_ISSUER}` };
      const audiences: unknown[] = Array.isArray(aud) ? aud : [aud];
      if (!audiences.includes(ID_TOKEN_AUDIENCE)) return { refused: `ID token audience is not ${ID_TOKEN_AUDIENCE}` };
      const expired = exp === undefined ? 'invalid' : isExpired(exp, now());
      if (expired !== false)
        return { refused: expired === true ? 'ID token expired' : 'ID token without a numeric exp' };
      if (typeof email !== 'string' || typeof sub !== 'string') return { refused: 'ID token without email or sub' };
      return { email, sub, ...(typeof name === 'string' && { name }) };
    },
  };
}

/**
 * The {@link IdTokenOptions} of a `POST …/control/id-token` body, `{ "email": "ada@example.test" }` and the optional
 * `sub`, `name`, `expiresIn`; or what is wrong with it.
 */
export function readIdTokenOptions(body: unknown): IdTokenOptions | { error: string } {
  if (typeof body !== 'object' || body === null) return { error: 'Send a JSON object: { "email": "…" }' };
  const { email, sub, name, expiresIn } = body as Record<string, unknown>;
  if (typeof email !== 'string' || email === '') return { error: '"email" must be a non-empty string' };
  if (![sub, name].every((each) => each === undefined || typeof each === 'string')) {
    return { error: '"sub" and "name" must be strings' };
  }
  if (expiresIn !== undefined && typeof expiresIn !== 'number') return { error: '"expiresIn" must be a number' };
  return { email, sub: sub as string | undefined, name: name as string | undefined, expiresIn };
}
