import { ApolloLink } from '@apollo/client';
import { GraphQLWsLink } from '@apollo/client/link/subscriptions';
import type { TokenAuth } from 'apollo-link-token-pair';
import { createTokenAuthWsClient } from 'apollo-link-token-pair/ws';
import type { EventLog } from './eventLog';

/**
 * The demo's terminating link: subscriptions over graphql-ws at the page's own `/graphql` (the dev server
 * proxies the upgrade), authenticated by the session; everything else through `http`.
 */
export function withSubscriptions(auth: TokenAuth, http: ApolloLink, log: EventLog): ApolloLink {
  const url = new URL('/graphql', location.href);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  const client = createTokenAuthWsClient(auth, {
    url: url.href,
    on: { connected: (_socket, _payload, wasRetry) => wasRetry || log.add('refresh', 'Live socket authenticated') },
  });
  return ApolloLink.split(({ operationType }) => operationType === 'subscription', new GraphQLWsLink(client), http);
}
