// @vitest-environment happy-dom
import { ApolloClient, ApolloLink, gql, HttpLink, InMemoryCache, type TypedDocumentNode } from '@apollo/client';
import { GraphQLWsLink } from '@apollo/client/link/subscriptions';
import { ApolloProvider, useSubscription } from '@apollo/client/react';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { StrictMode, useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createTokenAuth, type TokenAuth } from '../../src';
import { TokenAuthProvider, useAuth } from '../../src/react';
import { createTokenAuthWsClient } from '../../src/ws';
import { useCleanups } from '../helpers/overHttp';
import { startDemoServer } from '../helpers/overHttp';
import { TICK, wsUrl } from '../helpers/overWs';

const cleanups = useCleanups();
// Registered after useCleanups, so it runs before it (afterEach hooks run in reverse): React unmounts first.
afterEach(cleanup);

type Tick = { n: number; userId: string };
const TICKER: TypedDocumentNode<{ ticker: Tick }> = gql`
  subscription Ticker {
    ticker {
      n
      userId
    }
  }
`;

/** Every event the ticker below was given, as it was given: what the screen may show. */
let delivered: Tick[] = [];

/** A live ticker as an app shows it: the latest event, every event so far, and why it stopped. */
function Ticker() {
  const [events, setEvents] = useState<Tick[]>([]);
  const { data, error } = useSubscription(TICKER, {
    onData({ data: { data } }) {
      if (!data) return;
      delivered.push(data.ticker);
      setEvents((all) => [...all, data.ticker]);
    },
  });
  return (
    <div>
      <p data-testid="latest">{data ? data.ticker.userId : '-'}</p>
      <ol>
        {events.map((event, index) => (
          <li key={index}>{event.userId}</li>
        ))}
      </ol>
      {error && <p role="alert">{error.message}</p>}
    </div>
  );
}

function Buttons() {
  const { user, login, logout } = useAuth();
  return (
    <div>
      <p data-testid="user">{user?.id ?? 'signed out'}</p>
      <button onClick={() => void logout()}>logout</button>
      <button onClick={() => void login('cashier@demo.test', 'cashier-pass')}>login as cashier</button>
    </div>
  );
}

/** The user ids of the events rendered so far, in order. */
const rendered = () => screen.queryAllByRole('listitem').map((item) => item.textContent);

/** A demo server ticking every TICK ms, the admin signed in, and the ticker mounted in StrictMode with Apollo over HTTP and graphql-ws. */
async function tickingAsAdmin(): Promise<{ auth: TokenAuth }> {
  delivered = [];
  const server = await startDemoServer(cleanups, { tickerInterval: TICK });
  const auth = createTokenAuth({ uri: server.url, refreshOnResume: false });
  cleanups.push(() => auth.dispose());
  await auth.login('admin@demo.test', 'admin-pass');
  const ws = createTokenAuthWsClient(auth, { url: wsUrl(server), webSocketImpl: WebSocket, retryAttempts: 0 });
  cleanups.push(() => ws.dispose());
  const client = new ApolloClient({
    link: ApolloLink.split(
      ({ operationType }) => operationType === 'subscription',
      new GraphQLWsLink(ws),
      ApolloLink.from([auth.link, new HttpLink({ uri: server.url })]),
    ),
    cache: new InMemoryCache(),
  });
  await act(async () => {
    render(
      <StrictMode>
        <ApolloProvider client={client}>
          <TokenAuthProvider auth={auth}>
            <Buttons />
            <Ticker />
          </TokenAuthProvider>
        </ApolloProvider>
      </StrictMode>,
    );
  });
  await waitFor(() => expect(rendered().length).toBeGreaterThanOrEqual(2));
  return { auth };
}

describe('useSubscription through createTokenAuthWsClient (StrictMode, real demo server and WebSocket)', () => {
  it("another user's login: the ticker goes on showing the new user's events within 2 s, and none of the previous user's after the switch", async () => {
    const { auth } = await tickingAsAdmin();
    // The events given to the screen when the session changed hands.
    let atSwitch: number | undefined;
    cleanups.push(
      auth.subscribe(() => void (atSwitch ??= auth.getState().user?.id === 'u_cashier' ? delivered.length : undefined)),
    );

    fireEvent.click(screen.getByText('login as cashier'));
    await waitFor(() => expect(screen.getByTestId('user').textContent).toBe('u_cashier'));
    await waitFor(() => expect(screen.getByTestId('latest').textContent).toBe('u_cashier'), {
      timeout: 2_000,
      interval: 10,
    });
    await waitFor(() => expect(rendered().filter((id) => id === 'u_cashier').length).toBeGreaterThanOrEqual(3));

    const events = rendered();
    const firstCashier = events.indexOf('u_cashier');
    expect(events.slice(0, firstCashier).every((id) => id === 'u_admin')).toBe(true);
    expect(events.slice(firstCashier).every((id) => id === 'u_cashier')).toBe(true);
    // The previous user's events on screen are those it was given before the switch: none after it.
    expect(firstCashier).toBe(atSwitch);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('a logout ends the ticker with the session-ended message, and no event comes after it', async () => {
    const { auth } = await tickingAsAdmin();

    fireEvent.click(screen.getByText('logout'));
    await waitFor(() =>
      expect(screen.getByRole('alert').textContent).toBe('Your session has ended. Please sign in again.'),
    );
    const atEnd = rendered().length;
    await act(() => auth.login('cashier@demo.test', 'cashier-pass'));
    await waitFor(() => expect(screen.getByTestId('user').textContent).toBe('u_cashier'));

    expect(rendered().length).toBe(atEnd);
    expect(rendered().every((id) => id === 'u_admin')).toBe(true);
  });
});
