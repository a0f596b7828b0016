// src/auth.ts: the session and the Apollo client, created once for the page.
import { ApolloClient, ApolloLink, HttpLink, InMemoryCache } from '@apollo/client';
import { browserResume, createBroadcastTokenStore, createMemoryTokenStore, createTokenAuth } from 'apollo-link-token-pair';

const uri = import.meta.env.VITE_GRAPHQL_URL ?? 'http://127.0.0.1:4000/graphql';

// The memory store (the default) keeps the pair in this tab only, gone on reload. The broadcast store shares
// one session among every tab of the origin: a sign-in or sign-out in one shows in all, and one tab refreshes.
export const storeKind = new URLSearchParams(location.search).get('store') === 'broadcast' ? 'broadcast' : 'memory';

export const auth = createTokenAuth({
  uri,
  store: storeKind === 'broadcast' ? createBroadcastTokenStore() : createMemoryTokenStore(),
  // Refreshes when the tab comes back (visible, focused, online) if the proactive refresh fell due meanwhile.
  refreshOnResume: browserResume(),
});

export const client = new ApolloClient({
  link: ApolloLink.from([auth.link, new HttpLink({ uri })]),
  cache: new InMemoryCache(),
});
