import { ApolloClient, ApolloLink, HttpLink, InMemoryCache } from '@apollo/client';
import { createTokenAuth } from 'apollo-link-token-pair';

/**
 * After: the same app with apollo-link-token-pair. One link in place of the refresh and context links, and no
 * storage code: the pair lives in memory (see the storage step of docs/migrating.md to keep it across reloads).
 */
export function createTokenPairClient(uri: string) {
  const auth = createTokenAuth({ uri });
  const client = new ApolloClient({
    link: ApolloLink.from([auth.link, new HttpLink({ uri })]),
    cache: new InMemoryCache(),
  });
  const login = (email: string, password: string) => auth.login(email, password);
  return { client, auth, login };
}
