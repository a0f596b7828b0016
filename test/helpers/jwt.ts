/** Builds an unsigned JWT with the given claims: enough for a client that only decodes. */
export function makeJwt(claims: Record<string, unknown>): string {
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode(claims)}.c2lnbmF0dXJl`;
}

/** A pair whose access token was issued now (by `Date.now()`) and lives `lifetimeSeconds`. */
export function makePair(
  name: string,
  {
    lifetimeSeconds = 900,
    role = 'ADMIN',
    now = Date.now(),
  }: { lifetimeSeconds?: number; role?: string; now?: number } = {},
) {
  const iat = Math.floor(now / 1000);
  return {
    accessToken: makeJwt({ sub: 'u_1', email: 'a@b.test', role, iat, exp: iat + lifetimeSeconds, jti: name }),
    refreshToken: `refresh-${name}`,
  };
}
