// A REST server that keeps the refresh token in an HttpOnly cookie of its own, which the page never sees: it
// answers { token }, 400 when the cookie is missing and 401 when it refuses it.
import { createRestTransport } from 'apollo-link-token-pair';

export const cookieTransport = (api: string) =>
  createRestTransport({
    login: `${api}/auth/login`,
    refresh: `${api}/auth/refresh`,
    logout: `${api}/auth/logout`, // the server clears its cookie
    refreshTokenIn: 'cookie',
    refusal: { statuses: [400, 401, 403] },
  });
