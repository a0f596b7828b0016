// A GraphQL server whose refresh mutation reads the refresh token from Authorization: Bearer and takes no argument,
// and whose logout is authenticated by the access token and answers a Boolean.
import { createGraphQLTransport } from 'apollo-link-token-pair';

export const graphqlHeaderTransport = (uri: string) =>
  createGraphQLTransport({
    uri,
    refreshTokenIn: 'header',
    documents: {
      refresh: 'mutation { refreshToken: refreshSession { accessToken refreshToken } }',
      logout: 'mutation { logout: signOut }',
    },
  });
