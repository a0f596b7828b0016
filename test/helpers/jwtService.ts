import { AuthRejectedError, type TokenAuthTransport } from '../../src';
import { makeJwt } from './jwt';

const MINUTE = 60_000;
const USERS: Record<string, string> = { 'a@b.test': 'u_1', 'c@d.test': 'u_2' };

/**
 * A transport for a service of JWT pairs on the (fake) clock: `a@b.test` is `u_1`, `c@d.test` is `u_2`, any
 * password will do. The refresh token is a JWT too, living `refreshLife` ms, and the service's clock runs
 * `serverAhead` ms ahead of the client's. `control.refuse` makes the refreshes fail with it.
 */
export function service({ refreshLife = 30 * 24 * 60 * MINUTE, serverAhead = 0 } = {}) {
  let issued = 0;
  const control = { refuse: undefined as Error | undefined, refreshes: 0 };
  const pairFor = (sub: string) => {
    const iat = Math.floor((Date.now() + serverAhead) / 1000);
    const jti = `t${++issued}`;
    return {
      accessToken: makeJwt({ sub, role: 'ADMIN', iat, exp: iat + 900, jti }),
      refreshToken: makeJwt({ sub, iat, exp: iat + refreshLife / 1000, jti }),
    };
  };
  const transport: TokenAuthTransport = {
    login: async (email) => ({ ...pairFor(USERS[email]!), user: { id: USERS[email], email, role: 'ADMIN' } }),
    async refresh(token) {
      control.refreshes++;
      if (control.refuse) throw control.refuse;
      return pairFor(JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).sub);
    },
    logout: async () => ({ success: true }),
  };
  return { transport, control };
}

/** The service's refusal of a refresh token it revoked. */
export const revoked = () =>
  new AuthRejectedError('Invalid refresh token', 'refreshToken', [
    { message: 'Invalid refresh token', extensions: { code: 'INVALID_REFRESH_TOKEN' } },
  ]);
