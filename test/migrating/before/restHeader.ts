import { ApolloClient, ApolloLink, HttpLink, InMemoryCache } from '@apollo/client';
import { SetContextLink } from '@apollo/client/link/context';
import { jwtDecode } from 'jwt-decode';
// In the app: import { TokenRefreshLink } from 'apollo-link-token-refresh';
import { TokenRefreshLink } from './TokenRefreshLink';

/** What the server puts in its access tokens: no `sub` and no `role`. */
type Claims = { userId: number; email: string; roles: string[]; exp: number };

/**
 * Before: apollo-link-token-refresh in front of a REST auth server. `POST /auth/refresh` takes the refresh token as
 * `Authorization: Bearer`, rotates it and answers `{ ok, access_token, refresh_token }`; every refusal is a
 * `200 { ok: false, message }`. The user is read from the access token's `userId` and `roles`. `storage` is
 * `localStorage` in a browser.
 */
export function createRestHeaderClient(api: string, storage: Pick<Storage, 'getItem' | 'setItem' | 'clear'>) {
  const refreshLink = new TokenRefreshLink({
    isTokenValidOrUndefined: async () => {
      const token = storage.getItem('accessToken');
      return !token || jwtDecode<Claims>(token).exp * 1000 > Date.now();
    },
    fetchAccessToken: () =>
      fetch(`${api}/auth/refresh`, {
        method: 'POST',
        headers: { authorization: `Bearer ${storage.getItem('refreshToken')}` },
      }),
    // The answer carries the new refresh token too: keep it here, and hand the body on for its access_token.
    handleResponse: () => async (response) => {
      const body = (await response.json()) as Record<string, unknown>;
      if (typeof body['refresh_token'] === 'string') storage.setItem('refreshToken', body['refresh_token']);
      return body;
    },
    handleFetch: (accessToken) => storage.setItem('accessToken', accessToken),
    handleError: (error) => {
      console.warn('Your refresh token is invalid. Try to relogin', error);
      storage.clear();
    },
  });

  const authLink = new SetContextLink(({ headers }) => {
    const token = storage.getItem('accessToken');
    return { headers: { ...headers, authorization: token ? `Bearer ${token}` : '' } };
  });

  const client = new ApolloClient({
    link: ApolloLink.from([refreshLink, authLink, new HttpLink({ uri: `${api}/graphql` })]),
    cache: new InMemoryCache(),
  });

  async function login(email: string, password: string) {
    const response = await fetch(`${api}/auth/signin`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: email, password }),
    });
    const body = (await response.json()) as {
      ok: boolean;
      message?: string;
      access_token: string;
      refresh_token: string;
    };
    if (!body.ok) throw new Error(body.message);
    storage.setItem('accessToken', body.access_token);
    storage.setItem('refreshToken', body.refresh_token);
  }

  /** The signed-in user, from the access token's claims; `null` when there is none. */
  function currentUser() {
    const token = storage.getItem('accessToken');
    if (!token) return null;
    const { userId, email, roles } = jwtDecode<Claims>(token);
    return { id: userId, email, roles };
  }

  return { client, login, currentUser };
}
