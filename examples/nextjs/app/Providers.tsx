'use client';
// app/Providers.tsx: the browser's session and Apollo client, created once per page load and never on the server.
import { ApolloClient, ApolloLink, HttpLink, InMemoryCache } from '@apollo/client';
import { GraphQLWsLink } from '@apollo/client/link/subscriptions';
import {
  browserResume,
  createTokenAuth,
  createTokenHandlerTransport,
  type TokenAuthState,
} from 'apollo-link-token-pair';
import { BrowserTokenAuthProvider } from 'apollo-link-token-pair/react';
import { createTokenAuthWsClient } from 'apollo-link-token-pair/ws';
import type { ReactNode } from 'react';

// The API's graphql-ws endpoint (`ws://…/graphql`), set when the app is built: Next inlines NEXT_PUBLIC_* into the
// browser's bundle. Unset, the app has no subscriptions (and `?ticker` shows nothing).
export const wsUrl = process.env.NEXT_PUBLIC_GRAPHQL_WS_URL || undefined;

function createApp() {
  const auth = createTokenAuth({ transport: createTokenHandlerTransport('/auth'), refreshOnResume: browserResume() });
  const http = ApolloLink.from([auth.link, new HttpLink({ uri: '/graphql' })]);
  // The page holds the access token (the handler keeps the refresh token in its cookie), so it opens graphql-ws
  // straight to the API, authenticated by the session: the socket follows refreshes, sign-outs and a change of
  // user. Lazy: no socket until a subscription runs. createApp runs in the browser only, so no WebSocket on the server.
  const link = wsUrl
    ? ApolloLink.split(
        ({ operationType }) => operationType === 'subscription',
        new GraphQLWsLink(createTokenAuthWsClient(auth, { url: wsUrl })),
        http,
      )
    : http;
  const client = new ApolloClient({ link, cache: new InMemoryCache() });
  return { auth, client };
}

export function Providers({ serverState, children }: { serverState: TokenAuthState; children: ReactNode }) {
  return (
    <BrowserTokenAuthProvider create={createApp} serverState={serverState}>
      {children}
    </BrowserTokenAuthProvider>
  );
}
