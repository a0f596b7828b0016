import { gql } from '@apollo/client';
import { useSubscription } from '@apollo/client/react';
import { useState } from 'react';
import { describeError } from './describeError';

const TICKER = gql`
  subscription Ticker {
    ticker {
      n
      userId
      email
    }
  }
`;

interface TickerData {
  ticker: { n: number; userId: string; email: string };
}

function LiveTicker() {
  const [count, setCount] = useState(0);
  const { data, error } = useSubscription<TickerData>(TICKER, { onData: () => setCount((value) => value + 1) });
  return (
    <>
      <p>
        <span className="count" data-testid="ticker-count">
          {count}
        </span>{' '}
        events received; server tick <span data-testid="ticker-n">{data?.ticker.n ?? '–'}</span> for{' '}
        <span data-testid="ticker-user">{data?.ticker.userId ?? '…'}</span>
      </p>
      {error && (
        <p role="alert" className="event-error" data-testid="ticker-error" title={error.message}>
          The live subscription stopped. {describeError(error)}
        </p>
      )}
    </>
  );
}

/**
 * A live subscription over graphql-ws, started on demand (so the other buttons' counters stay about HTTP): it
 * ticks through proactive refreshes and forced expiry, and stops at logout.
 */
export function Ticker() {
  const [live, setLive] = useState(false);
  return (
    <div className="card ticker" data-testid="ticker">
      <h3>Live subscription</h3>
      <button className="secondary" onClick={() => setLive(!live)} data-testid="ticker-toggle">
        {live ? 'Stop the ticker' : 'Start the ticker'}
      </button>
      {live && <LiveTicker />}
    </div>
  );
}
