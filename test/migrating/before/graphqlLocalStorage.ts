import { ApolloClient, ApolloLink, gql, HttpLink, InMemoryCache } from '@apollo/client';
import type { TypedDocumentNode } from '@apollo/client';
import { SetContextLink } from '@apollo/client/link/context';
import { print } from 'graphql';
import { jwtDecode } from 'jwt-decode';
// In the app: import { TokenRefreshLink } from 'apollo-link-token-refresh';
import { TokenRefreshLink } from './TokenRefreshLink';

type Pair = { accessToken: string; refreshToken: string };

const LOGIN: TypedDocumentNode<{ loginWithEmailPassword: Pair }, { email: string; password: string }> = gql`
  mutation Login($email: String!, $password: String!) {
    loginWithEmailPassword(email: $email, password: $password) {
      accessToken
      refreshToken
    }
  }
`;
const REFRESH = gql`
  mutation Refresh($token: String!) {
    refreshToken(token: $token) {
      accessToken
      refreshToken
    }
  }
`;

/**
 * Before: apollo-link-token-refresh's usual setup, with the contract's refresh mutation and the pair in
 * `localStorage`: it checks the access token's `exp` before each operation and refreshes when it has passed.
 * `storage` is `localStorage` in a browser.
 */
export function createTokenRefreshLinkClient(uri: string, storage: Pick<Storage, 'getItem' | 'setItem' | 'clear'>) {
  const refreshLink = new TokenRefreshLink<Pair>({
    accessTokenField: 'refreshToken', // the mutation's field, which answers the new pair
    isTokenValidOrUndefined: async () => {
      const token = storage.getItem('accessToken');
      return !token || (jwtDecode(token).exp ?? 0) * 1000 > Date.now();
    },
    fetchAccessToken: () =>
      fetch(uri, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: print(REFRESH), variables: { token: storage.getItem('refreshToken') } }),
      }),
    handleFetch: (pair) => store(pair),
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
    link: ApolloLink.from([refreshLink, authLink, new HttpLink({ uri })]),
    cache: new InMemoryCache(),
  });

  function store(pair: Pair) {
    storage.setItem('accessToken', pair.accessToken);
    storage.setItem('refreshToken', pair.refreshToken);
  }

  async function login(email: string, password: string) {
    const { data } = await client.mutate({ mutation: LOGIN, variables: { email, password } });
    if (data) store(data.loginWithEmailPassword);
  }

  return { client, login };
}
