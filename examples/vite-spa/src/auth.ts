// src/auth.ts: the session and the Apollo client, created once for the page.
import { ApolloClient, ApolloLink, HttpLink, InMemoryCache } from '@apollo/client';
import { GraphQLWsLink } from '@apollo/client/link/subscriptions';
import {
  browserResume,
  createBroadcastTokenStore,
  createMemoryTokenStore,
  createTokenAuth,
  logTokenAuth,
} from 'apollo-link-token-pair';
import { createTokenAuthWsClient } from 'apollo-link-token-pair/ws';
import { refetchEventManager } from './refetchEvents';
import { signIns } from './signIns';

const uri = import.meta.env.VITE_GRAPHQL_URL ?? 'http://127.0.0.1:4000/graphql';
const params = new URLSearchParams(location.search);

// The memory store (the default) keeps the pair in this tab only, gone on reload. The broadcast store shares
// one session among every tab of the origin: a sign-in or sign-out in one shows in all, and one tab refreshes.
export const storeKind = params.get('store') === 'broadcast' ? 'broadcast' : 'memory';

// `?ticker` shows the API's `ticker` subscription on the page (graphql-ws at the API's URL, ws: for http:).
export const showTicker = params.has('ticker');

export const auth = createTokenAuth({
  uri,
  store: storeKind === 'broadcast' ? createBroadcastTokenStore() : createMemoryTokenStore(),
  // Refreshes when the tab comes back (visible, focused, online) if the proactive refresh fell due meanwhile.
  refreshOnResume: browserResume(),
  // The doors of `signIn(name, variables)`: a sign-up, whose answer begins the session.
  signIns,
});

// `?log` prints what the session does to the console (debug level), one line per event, as the devtools' timeline
// words it: the soak (`npm run soak`) keeps these lines beside what it checks.
if (params.has('log')) logTokenAuth(auth, { log: (line) => console.debug('apollo-link-token-pair:', line) });

// Subscriptions go over graphql-ws, authenticated by the session (the socket follows refreshes, sign-outs and a
// change of user); everything else over HTTP. graphql-ws connects lazily: no socket until a subscription runs.
const wsUrl = new URL(uri, location.href);
wsUrl.protocol = wsUrl.protocol === 'https:' ? 'wss:' : 'ws:';
const ws = new GraphQLWsLink(createTokenAuthWsClient(auth, { url: wsUrl.href }));

export const client = new ApolloClient({
  link: ApolloLink.split(
    ({ operationType }) => operationType === 'subscription',
    ws,
    ApolloLink.from([auth.link, new HttpLink({ uri })]),
  ),
  cache: new InMemoryCache(),
  refetchEventManager,
});
