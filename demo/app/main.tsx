import { ApolloClient, ApolloLink, HttpLink, InMemoryCache } from '@apollo/client';
import { ApolloProvider } from '@apollo/client/react';
import { createTokenAuth } from 'apollo-link-token-pair';
import { TokenAuthProvider } from 'apollo-link-token-pair/react';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { withSubscriptions } from './withSubscriptions';
import { createEventLog } from './eventLog';

const uri = '/graphql';
const log = createEventLog();

// The token handler at /auth (same origin) keeps the refresh token in an encrypted HttpOnly cookie; this page
// holds only the access token, in memory. A reload, or a new tab, restores the session with one call to it.
const auth = createTokenAuth({
  tokenHandler: '/auth',
  onRefresh({ trigger, outcome }) {
    if (trigger === 'restore') {
      if (outcome === 'rotated') log.add('refresh', 'Session restored from the cookie through /auth');
    } else if (outcome === 'rotated' && trigger === 'proactive') log.add('proactive', 'Proactive refresh before expiry');
    else if (outcome === 'rotated' && trigger === 'token-expired') log.add('replay', 'TOKEN_EXPIRED: pair refreshed once, operations replayed');
    else if (outcome === 'rotated') log.add('refresh', `Refreshed (${trigger})`);
    else if (outcome === 'adopted') log.add('refresh', 'Another tab had refreshed already: its pair adopted, no request');
    else if (outcome === 'failed') log.add('error', `Refresh failed (${trigger}); session kept, retrying`);
  },
  onSessionEnd({ reason }) {
    log.add(reason === 'logout' ? 'logout' : 'ended', reason === 'logout' ? 'Logged out' : 'Session ended: the server rejected the refresh token');
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
