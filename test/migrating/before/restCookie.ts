import { ApolloClient, ApolloLink, HttpLink, InMemoryCache } from '@apollo/client';
import { SetContextLink } from '@apollo/client/link/context';
import { jwtDecode } from 'jwt-decode';
// In the app: import { TokenRefreshLink } from 'apollo-link-token-refresh';
import { TokenRefreshLink } from './TokenRefreshLink';

/**
 * Before: apollo-link-token-refresh in front of a REST auth server that keeps the refresh token in an `HttpOnly`
 * cookie of its own. The page holds the access token alone, in a variable: `POST /auth/refresh` reads the cookie
 * and answers `{ token }` (400 without a cookie, 401 for one it refuses). At page load the app calls `restore()`,
 * and holds its screens until it resolves.
 */
export function createRestCookieClient(api: string) {
  let accessToken = '';
  const refresh = () => fetch(`${api}/auth/refresh`, { method: 'POST', credentials: 'include' });

  const refreshLink = new TokenRefreshLink({
    accessTokenField: 'token',
    isTokenValidOrUndefined: async () => !accessToken || (jwtDecode(accessToken).exp ?? 0) * 1000 > Date.now(),
    fetchAccessToken: refresh,
    handleFetch: (token) => {
      accessToken = token;
    },
    handleError: (error) => {
      console.warn('Your refresh token is invalid. Try to relogin', error);
      accessToken = '';
    },
  });

  const authLink = new SetContextLink(({ headers }) => ({
    headers: { ...headers, authorization: accessToken ? `Bearer ${accessToken}` : '' },
  }));

  const client = new ApolloClient({
    link: ApolloLink.from([refreshLink, authLink, new HttpLink({ uri: `${api}/graphql` })]),
    cache: new InMemoryCache(),
  });

  /** At page load: an access token, if the cookie holds a session. Resolves whether someone is signed in. */
  async function restore() {
    const response = await refresh();
    if (response.ok) accessToken = ((await response.json()) as { token: string }).token;
    return response.ok;
  }

  async function login(email: string, password: string) {
    const response = await fetch(`${api}/auth/login`, {
      method: 'POST',
      credentials: 'include',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });
    const body = (await response.json()) as { token: string; message?: string };
    if (!response.ok) throw new Error(body.message);
    accessToken = body.token;
  }

  return { client, restore, login };
}
