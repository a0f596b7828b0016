// restUpstream.ts: the token handler in front of a REST auth server (POST /auth/login, /auth/refresh, /auth/logout
// and /auth/register, each answering JSON), through a transport of a few lines.
import { AuthRejectedError, AuthRequestError, type TokenAuthTransport } from 'apollo-link-token-pair';
import { createTokenHandler, type TokenHandler, type TokenHandlerOptions } from 'apollo-link-token-pair/server';

/** The REST auth server at `url`; `forwardedFor`, the client's address, goes with every call. */
export function restTransport(url: string, forwardedFor?: string): TokenAuthTransport {
  async function post(path: string, body: object, signal: AbortSignal) {
    const response = await fetch(`${url}/auth/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(forwardedFor && { 'x-forwarded-for': forwardedFor }) },
      body: JSON.stringify(body),
      signal,
    });
    const answer = await response.json().catch(() => ({}));
    // 401 and 403 are a verdict (a wrong password; a refresh token used, revoked or expired): the session ends.
    // Anything else is no verdict (the server is down, a 5xx): the session is kept and the refresh retried.
    if (response.status === 401 || response.status === 403)
      throw new AuthRejectedError(answer.message ?? 'Refused', path, [{ message: answer.message }]);
    if (!response.ok) throw new AuthRequestError(`${path} failed with HTTP ${response.status}`, path, response.status);
    return answer; // { accessToken, refreshToken, user? }
  }
  return {
    login: (email, password, signal) => post('login', { email, password }, signal),
    refresh: (refreshToken, signal) => post('refresh', { refreshToken }, signal),
    logout: ({ refreshToken }, signal) => post('logout', { refreshToken }, signal),
    // The page's auth.signIn('register', { email, password }) runs this door, here on the server.
    signIns: ['register'],
    signIn: (name, variables, signal) => post(name, variables, signal),
  };
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
