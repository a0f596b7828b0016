import { ApolloClient, ApolloLink, HttpLink, InMemoryCache } from '@apollo/client';
import { ApolloProvider } from '@apollo/client/react';
import { browserResume, createTokenAuth, createTokenHandlerTransport } from 'apollo-link-token-pair';
import { TokenAuthProvider } from 'apollo-link-token-pair/react';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { withSubscriptions } from './withSubscriptions';
import { describeRefresh } from './describeRefresh';
import { describeSessionEnd } from './describeSessionEnd';
import { createEventLog } from './eventLog';

const uri = '/graphql';
const log = createEventLog();

// The token handler at /auth (same origin) keeps the refresh token in an encrypted HttpOnly cookie; this page
// holds only the access token, in memory. A reload, or a new tab, restores the session with one call to it.
const auth = createTokenAuth({
  transport: createTokenHandlerTransport('/auth'),
  // Refreshes when the tab comes back (visible, focused, online) if the proactive refresh fell due meanwhile.
  refreshOnResume: browserResume(),
  onRefresh(event) {
    const line = describeRefresh(event);
    if (line) log.add(line.kind, line.text);
  },
  onSessionEnd(event) {
    log.add(event.reason === 'logout' ? 'logout' : 'ended', describeSessionEnd(event).reason);
  },
});

const client = new ApolloClient({
  link: withSubscriptions(auth, ApolloLink.from([auth.link, new HttpLink({ uri })]), log),
  cache: new InMemoryCache(),
});

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <ApolloProvider client={client}>
      <TokenAuthProvider auth={auth}>
        <App log={log} />
      </TokenAuthProvider>
    </ApolloProvider>
  </StrictMode>,
);
