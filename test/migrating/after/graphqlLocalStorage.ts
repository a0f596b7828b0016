import { ApolloClient, ApolloLink, HttpLink, InMemoryCache } from '@apollo/client';
import { browserResume, createTokenAuth } from 'apollo-link-token-pair';
// The recipe of docs/sign-in.md, "Adopting a pair".
import { adoptStoredPair } from '../../readme/signIn/adopt';

/**
 * After: the same app with apollo-link-token-pair. One link in place of the refresh and context links, and no
 * storage code: the session keeps the pair in memory. The pair the old setup left in `storage` (`localStorage` in a
 * browser) is moved into the session once, at start, and removed from it: users stay signed in through the upgrade.
 */
export function createTokenPairClient(uri: string, storage: Pick<Storage, 'getItem' | 'removeItem'>) {
  const auth = createTokenAuth({ uri, refreshOnResume: browserResume() });
  const client = new ApolloClient({
    link: ApolloLink.from([auth.link, new HttpLink({ uri })]),
    cache: new InMemoryCache(),
  });
  // Resolves the user, or null when nobody was signed in; no request while the stored access token lives.
  const restored = adoptStoredPair(auth, storage);
  return { client, auth, restored };
}
