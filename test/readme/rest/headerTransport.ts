// A REST server that takes the refresh token as Authorization: Bearer, rotates it, answers { ok, access_token,
// refresh_token } (the defaults read both names), and every refusal with 200 { ok: false, message }.
import { createRestTransport } from 'apollo-link-token-pair';

export const headerTransport = (api: string) =>
  createRestTransport({
    login: { url: `${api}/auth/signin`, body: ({ email, password }) => ({ username: email, password }) },
    refresh: `${api}/auth/refresh`,
    logout: `${api}/auth/logout`, // with Authorization: Bearer <access token>; answers true
    refreshTokenIn: 'header',
    refusal: { when: ({ body }) => body['ok'] === false },
  });
