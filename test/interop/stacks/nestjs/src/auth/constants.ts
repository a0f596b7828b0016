import { randomBytes } from 'node:crypto';

/** The token settings, from the environment the interop harness starts the server with. */
export const jwtConstants = {
  secret: process.env.JWT_SECRET || randomBytes(32).toString('hex'),
  /** Seconds. */
  accessTokenTtl: Number(process.env.ACCESS_TOKEN_TTL || 900),
  /** Seconds. */
  refreshTokenTtl: Number(process.env.REFRESH_TOKEN_TTL || 30 * 24 * 3600),
};
