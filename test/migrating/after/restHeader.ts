import { ApolloClient, ApolloLink, HttpLink, InMemoryCache } from '@apollo/client';
import { browserResume, createTokenAuth } from 'apollo-link-token-pair';
// The transport of docs/transports.md, "The refresh token in a header":
// createRestTransport({ refreshTokenIn: 'header', … }).
import { headerTransport } from '../../readme/rest/headerTransport';

/**
 * After: the same REST app with apollo-link-token-pair. The server is described, not coded: its endpoints, where the
 * refresh token goes and what a refusal looks like are the transport's options, and the user comes from the access
 * token's `userId` and `roles` through `readUser`.
 */
export function createRestHeaderClient(api: string) {
  const auth = createTokenAuth({
    transport: headerTransport(api),
    readUser: (claims) => ({
      id: claims['userId'] as number,
      email: claims['email'] as string,
      role: claims['roles'] as string[],
    }),
    refreshOnResume: browserResume(),
  });
  const client = new ApolloClient({
    link: ApolloLink.from([auth.link, new HttpLink({ uri: `${api}/graphql` })]),
    cache: new InMemoryCache(),
  });
  return { client, auth };
}
