import { ApolloClient, ApolloLink, HttpLink, InMemoryCache } from '@apollo/client';
import { ApolloProvider } from '@apollo/client/react';
import { createTokenAuth, createTokenHandlerTransport } from 'apollo-link-token-pair';
import { TokenAuthDevtools } from 'apollo-link-token-pair/devtools';
import { TokenAuthProvider } from 'apollo-link-token-pair/react';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { map } from 'rxjs';
import { App } from './App';
import { describeLogin } from './describeLogin';
import { describeRefresh } from './describeRefresh';
import { describeSessionEnd } from './describeSessionEnd';
import { createEventLog } from './eventLog';
import { claimsOf, clock, lab, labFetch, labResume, shortId } from './lab';
import { withSubscriptions } from './withSubscriptions';

const uri = '/graphql';
const log = createEventLog();

// The access token the log last saw, and the one before it: a rotation shows as "before → after".
const tokens = { current: '', previous: '' };

// The token handler at /auth (same origin) keeps the refresh token in an encrypted HttpOnly cookie; this page
// holds only the access token, in memory. A reload, or a new tab, restores the session with one call to it.
const auth = createTokenAuth({
  // `labFetch`: the lab's "offline for this page" makes these calls fail as without a network.
  transport: createTokenHandlerTransport('/auth', { fetch: labFetch }),
  // Refreshes when the tab comes back (visible, focused, online) if the proactive refresh fell due meanwhile.
  refreshOnResume: labResume(),
  // The page's clock, which the lab can set 20 minutes off.
  clock,
});

// The event log is written from the session's own events, the ones the devtools panel shows: one source of truth.
let signedIn: string | undefined;
auth.observe((event) => {
  switch (event.type) {
    case 'login': {
      // Which door: login(), a sign-in door (a sign-up, a code, a second factor), or adopt().
      const { kind, text, door, who } = describeLogin(event, signedIn);
      if (who) signedIn = who;
      return log.add(kind, text, { door });
    }
    case 'followed':
      signedIn = `${event.user.email} (${event.user.role})`;
      return;
    case 'refresh': {
      const line = describeRefresh(event, { resumeCause: lab.resumeCause, offline: lab.getSnapshot().offline });
      if (!line) return;
      const rotated = event.outcome === 'rotated' || event.outcome === 'adopted';
      const before = rotated ? tokens.previous : tokens.current;
      return log.add(line.kind, line.text, {
        trigger: event.trigger,
        outcome: event.outcome,
        tokens: { before, after: tokens.current },
      });
    }
    case 'end': {
      signedIn = undefined;
      const { verdicts, sid } = lab.getSnapshot();
      const reused = verdicts[sid] === 'reuse';
      const text =
        reused && event.reason === 'rejected'
          ? 'The server detected a reused refresh token and revoked the session.'
          : describeSessionEnd(event).reason;
      return log.add(event.reason === 'logout' ? 'logout' : 'ended', text, { outcome: event.reason });
    }
  }
});

auth.subscribe(() => {
  const claims = auth.getState().user?.claims;
  if (!claims) return;
  lab.noteSid(String(claims['sid'] ?? ''));
  const id = shortId(claims['jti']);
  if (id !== tokens.current) {
    tokens.previous = tokens.current;
    tokens.current = id;
  }
});

// Between the package's link and the network: notes which access token the server answered TOKEN_EXPIRED, so the
// countdown can say "expired (server)" before the refresh replaces it.
const serverSays = new ApolloLink((operation, forward) => {
  const sent = String(
    (operation.getContext()['headers'] as Record<string, string> | undefined)?.['authorization'] ?? '',
  ).replace(/^Bearer\s+/i, '');
  return forward(operation).pipe(
    map((result) => {
      if (result.errors?.some((error) => error.extensions?.['code'] === 'TOKEN_EXPIRED'))
        lab.tell('expired', claimsOf(sent));
      return result;
    }),
  );
});

const client = new ApolloClient({
  link: withSubscriptions(auth, ApolloLink.from([auth.link, serverSays, new HttpLink({ uri, fetch: labFetch })]), log),
  cache: new InMemoryCache(),
});

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <ApolloProvider client={client}>
      <TokenAuthProvider auth={auth}>
        <App log={log} />
      </TokenAuthProvider>
    </ApolloProvider>
    <TokenAuthDevtools auth={auth} />
  </StrictMode>,
);
