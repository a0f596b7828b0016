import { ApolloClient, ApolloLink, gql, HttpLink, InMemoryCache } from '@apollo/client';

// No vitest here: child processes, leak fixtures and benchmarks import this module too.

/** The demo server's `ping(n)`: distinct operations that Apollo does not deduplicate. */
export const PING = gql`
  query Ping($n: Int) {
    ping(n: $n)
  }
`;

/** An `ApolloClient` whose chain is `link` then an `HttpLink` to `uri`. */
export function clientFor(link: ApolloLink, uri: string): ApolloClient {
  return new ApolloClient({ link: ApolloLink.from([link, new HttpLink({ uri })]), cache: new InMemoryCache() });
}

/** Sends `ping(n)` past the cache. */
export function ping(client: ApolloClient, n: number) {
  return client.query({ query: PING, variables: { n }, fetchPolicy: 'network-only' });
}
