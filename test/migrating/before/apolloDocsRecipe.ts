import { ApolloClient, ApolloLink, CombinedGraphQLErrors, gql, HttpLink, InMemoryCache } from '@apollo/client';
import type { TypedDocumentNode } from '@apollo/client';
import { SetContextLink } from '@apollo/client/link/context';
import { ErrorLink } from '@apollo/client/link/error';
import { from, switchMap } from 'rxjs';

type Pair = { accessToken: string; refreshToken: string };

const LOGIN: TypedDocumentNode<{ loginWithEmailPassword: Pair }, { email: string; password: string }> = gql`
  mutation Login($email: String!, $password: String!) {
    loginWithEmailPassword(email: $email, password: $password) {
      accessToken
      refreshToken
    }
  }
`;
const REFRESH: TypedDocumentNode<{ refreshToken: Pair }, { token: string }> = gql`
  mutation Refresh($token: String!) {
    refreshToken(token: $token) {
      accessToken
      refreshToken
    }
  }
`;

/**
 * Before: token refresh as Apollo Client 4's documentation teaches it, a `SetContextLink` that reads the access
 * token from storage and an `ErrorLink` that refreshes on `TOKEN_EXPIRED` and retries the operation once.
 * `storage` is `localStorage` in a browser.
 */
export function createApolloDocsClient(uri: string, storage: Pick<Storage, 'getItem' | 'setItem'>) {
  const authLink = new SetContextLink(({ headers }) => {
    const token = storage.getItem('accessToken');
    return { headers: { ...headers, authorization: token ? `Bearer ${token}` : '' } };
  });

  const errorLink = new ErrorLink(({ error, operation, forward }) => {
    if (!CombinedGraphQLErrors.is(error)) return;
    if (!error.errors.some((each) => each.extensions?.['code'] === 'TOKEN_EXPIRED')) return;
    // Refresh, then retry once: forward() runs authLink again, which reads the new access token.
    return from(refreshTokens()).pipe(switchMap(() => forward(operation)));
  });

  const client = new ApolloClient({
    link: ApolloLink.from([errorLink, authLink, new HttpLink({ uri })]),
    cache: new InMemoryCache(),
  });

  function store(pair: Pair) {
    storage.setItem('accessToken', pair.accessToken);
    storage.setItem('refreshToken', pair.refreshToken);
  }

  async function refreshTokens() {
    const token = storage.getItem('refreshToken') ?? '';
    const { data } = await client.mutate({ mutation: REFRESH, variables: { token } });
    if (data) store(data.refreshToken);
  }

  async function login(email: string, password: string) {
    const { data } = await client.mutate({ mutation: LOGIN, variables: { email, password } });
    if (data) store(data.loginWithEmailPassword);
  }

  return { client, login };
}
