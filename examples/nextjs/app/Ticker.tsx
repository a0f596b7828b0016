'use client';
// app/Ticker.tsx: the API's `ticker` subscription (graphql-ws, see Providers.tsx), shown with `?ticker`.
import { gql } from '@apollo/client';
import { useSubscription } from '@apollo/client/react';

const TICKER = gql`
  subscription Ticker {
    ticker {
      n
      userId
      email
    }
  }
`;

// The API's events for the signed-in user, live. Keyed by the user (in SessionPanel): a new user's ticker starts
// empty instead of showing the last user's event until its own first one. `no-cache`: nothing else reads the
// ticker, and each event written to the cache (an object without an id) would keep a result in its read memo.
export function Ticker() {
  const { data, error } = useSubscription<{ ticker: { n: number; userId: string; email: string } }>(TICKER, {
    fetchPolicy: 'no-cache',
  });
  return (
    <p data-testid="ticker">
      {data
        ? `Tick ${data.ticker.n} for ${data.ticker.email}`
        : error
          ? `Ticker failed: ${error.message}`
          : 'Waiting for the first tick…'}
    </p>
  );
}
