import { ApolloClient, ApolloLink, HttpLink, InMemoryCache } from '@apollo/client';
import { browserResume, createTokenAuth } from 'apollo-link-token-pair';
// The transport of docs/transports.md, "The refresh token in the server's own cookie":
// createRestTransport({ refreshTokenIn: 'cookie', … }).
import { cookieTransport } from '../../readme/rest/cookieTransport';

/**
 * After: the same cookie app with apollo-link-token-pair. Nothing to restore by hand: the session starts `loading`,
 * asks the server with one refresh whether its cookie holds a session, and holds the operations sent meanwhile until
 * it knows. The cookie stays where it was, so users signed in with the old app are still signed in.
 */
export function createRestCookieClient(api: string) {
  const auth = createTokenAuth({
    transport: cookieTransport(api),
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
