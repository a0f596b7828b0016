// A REST server that takes the refresh token in the JSON body, wraps every answer in { data }, and answers a refused
// refresh token with 500 { error: 'Invalid refresh token' }: its routes catch every error into a 500.
import { createRestTransport } from 'apollo-link-token-pair';

export const bodyTransport = (api: string) =>
  createRestTransport({
    login: `${api}/api/auth/login`, // POST { email, password }
    refresh: `${api}/api/auth/refresh`, // POST { refreshToken }
    logout: `${api}/api/auth/logout`, // POST { refreshToken }, with Authorization: Bearer <access token>
    answer: { accessToken: 'data.accessToken', refreshToken: 'data.refreshToken', user: 'data.user' },
    // Its other 500s are the server failing: the session is kept, and the refresh retried.
    refusal: { when: ({ status, body }) => status === 500 && body['error'] === 'Invalid refresh token' },
  });
