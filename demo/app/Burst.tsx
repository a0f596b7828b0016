import { gql } from '@apollo/client';
import { useApolloClient } from '@apollo/client/react';
import { useAuth } from 'apollo-link-token-pair/react';
import { useState } from 'react';
import { describeBurst } from './describeFailure';
import type { EventLog } from './eventLog';
import { lab } from './lab';
import { loadLabReport } from './labReport';

const PING = gql`
  query Ping($n: Int) {
    ping(n: $n)
  }
`;

/** The burst size as typed: a whole number from 1 to 500, or why not. */
function parseCount(text: string): { count: number } | { problem: string } {
  const count = Number(text);
  if (text.trim() === '' || !Number.isInteger(count) || count < 1 || count > 500)
    return { problem: 'Enter a whole number from 1 to 500.' };
  return { count };
}

const queries = (count: number) => `${count} ${count === 1 ? 'query' : 'queries'}`;

/** N concurrent queries, alone or while a refresh is on the wire; the result counts the failures by reason. */
export function Burst({ log }: { log: EventLog }) {
  const client = useApolloClient();
  const { auth } = useAuth();
  const [text, setText] = useState('20');
  const [result, setResult] = useState('');
  const parsed = parseCount(text);
  const count = 'count' in parsed ? parsed.count : undefined;

  async function fire(duringRefresh: boolean) {
    if (count === undefined) return;
    setResult(`${queries(count)} in flight…`);
    const started = performance.now();
    // A refresh the app asks for goes out at once; the queries start while it is on the wire.
    const refreshing = duringRefresh ? auth.refresh().catch(() => {}) : undefined;
    const results = await Promise.allSettled(
      Array.from({ length: count }, (_, n) =>
        client.query({ query: PING, variables: { n }, fetchPolicy: 'network-only' }),
      ),
    );
    await refreshing;
    const text = describeBurst(results, performance.now() - started, lab.getSnapshot().offline);
    setResult(text);
    const ok = results.every((r) => r.status === 'fulfilled');
    log.add(ok ? 'refresh' : 'error', duringRefresh ? `During a refresh: ${text}` : text);
    void loadLabReport();
  }

  return (
    <div className="card actions">
      <h3>Stress the session</h3>
      <div className="row">
        <label>
          Concurrent queries
          <input
            type="number"
            min={1}
            max={500}
            value={text}
            onChange={(e) => setText(e.target.value)}
            aria-invalid={count === undefined}
            aria-describedby="burst-size-problem"
            data-testid="burst-size"
          />
        </label>
        <button className="primary" onClick={() => fire(false)} disabled={count === undefined} data-testid="fire">
          Fire {count === undefined ? '…' : queries(count)}
        </button>
        <button
          className="secondary"
          onClick={() => fire(true)}
          disabled={count === undefined}
          data-testid="fire-during-refresh"
        >
          Fire {count === undefined ? '…' : count} during a refresh
        </button>
      </div>
      {'problem' in parsed && (
        <p className="error" id="burst-size-problem" role="alert" data-testid="burst-size-error">
          {parsed.problem}
        </p>
      )}
      <p className="hint" data-testid="hint-burst">
        Fire: every query succeeds, and after "Expire" they share one refresh. During a refresh: the queries start while
        a refresh is on the wire (slow it down below to watch) and join it: the server counts one refresh.
      </p>
      <p data-testid="burst-result" aria-live="polite">
        {result}
      </p>
    </div>
  );
}
