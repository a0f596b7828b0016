'use client';
// app/Providers.tsx: the browser's session and Apollo client, created once per page load and never on the server.
import { ApolloClient, ApolloLink, HttpLink, InMemoryCache } from '@apollo/client';
import { browserResume, createTokenAuth, createTokenHandlerTransport, type TokenAuthState } from 'apollo-link-token-pair';
import { BrowserTokenAuthProvider } from 'apollo-link-token-pair/react';
import type { ReactNode } from 'react';

function createApp() {
  const auth = createTokenAuth({ transport: createTokenHandlerTransport('/auth'), refreshOnResume: browserResume() });
  const client = new ApolloClient({
    link: ApolloLink.from([auth.link, new HttpLink({ uri: '/graphql' })]),
    cache: new InMemoryCache(),
  });
  return { auth, client };
}

export function Providers({ serverState, children }: { serverState: TokenAuthState; children: ReactNode }) {
  return (
    <BrowserTokenAuthProvider create={createApp} serverState={serverState}>
      {children}
    </BrowserTokenAuthProvider>
  );
}
