// restUpstream.ts: the token handler in front of a REST auth server (POST /auth/login, /auth/refresh, /auth/logout
// and /auth/register, each answering JSON), through createRestTransport.
import { createRestTransport, type TokenAuthTransport } from 'apollo-link-token-pair';
import { createTokenHandler, type TokenHandler, type TokenHandlerOptions } from 'apollo-link-token-pair/server';

/** The REST auth server at `url`; `forwardedFor`, the client's address, goes with every call. */
export function restTransport(url: string, forwardedFor?: string): TokenAuthTransport {
  return createRestTransport({
    login: `${url}/auth/login`,
    refresh: `${url}/auth/refresh`,
    logout: `${url}/auth/logout`,
    // The page's auth.signIn('register', { email, password }) runs this door, here on the server.
    signIns: { register: `${url}/auth/register` },
    headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {},
  });
}

/** The token handler in front of the REST auth server at `url`: `secret` and any other option, but no `uri`. */
export function createRestTokenHandler(
  url: string,
  options: Omit<TokenHandlerOptions, 'upstream' | 'uri'>,
): TokenHandler {
  return createTokenHandler({
    ...options,
    // A function of each request's context, so that the REST server's own throttling sees the user's address.
    upstream: ({ forwardedFor }) => restTransport(url, forwardedFor),
  });
}
