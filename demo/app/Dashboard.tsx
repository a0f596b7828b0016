import { gql } from '@apollo/client';
import { useApolloClient } from '@apollo/client/react';
import { useAuth } from 'apollo-link-token-pair/react';
import { useEffect, useState, useSyncExternalStore } from 'react';
import type { EventLog } from './eventLog';
import { ServerCounters } from './ServerCounters';
import { SwitchAccount } from './SwitchAccount';
import { Ticker } from './Ticker';

const PING = gql`
  query Ping($n: Int) {
    ping(n: $n)
  }
`;

function useNow(interval: number) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), interval);
    return () => clearInterval(timer);
  }, [interval]);
  return now;
}

const seconds = (ms: number | undefined) => (ms === undefined ? '–' : `${Math.max(0, Math.ceil(ms / 1000))} s`);

/** The signed-in view: who, when the token dies, the event log, the server's counters, and buttons that stress the session. */
export function Dashboard({ log }: { log: EventLog }) {
  const { user, me, expiresAt, refreshAt, logout } = useAuth();
  const client = useApolloClient();
  const now = useNow(250);
  const events = useSyncExternalStore(log.subscribe, log.getSnapshot, log.getSnapshot);
  const [count, setCount] = useState(20);
  const [burst, setBurst] = useState<string>('');

  async function fire() {
    setBurst(`${count} queries in flight…`);
    const started = performance.now();
    const results = await Promise.allSettled(
      Array.from({ length: count }, (_, n) => client.query({ query: PING, variables: { n }, fetchPolicy: 'network-only' })),
    );
    const ok = results.filter((result) => result.status === 'fulfilled').length;
    const text = `${ok} of ${count} queries succeeded in ${Math.round(performance.now() - started)} ms`;
    setBurst(text);
    log.add(ok === count ? 'refresh' : 'error', text);
  }

  async function control(path: string, text: string) {
    await fetch(`/control/${path}`, { method: 'POST' });
    log.add('error', text);
  }

  return (
    <section className="dashboard">
      <div className="card who" data-testid="me">
        <div className="who-head">
          <h2>
            <span className="email" data-testid="user-email">{me?.email ?? user?.email ?? '…'}</span>{' '}
            <span className={`badge role-${user?.role}`} data-testid="role">{user?.role}</span>
          </h2>
          <button className="secondary" onClick={() => logout()} data-testid="logout">
            Log out
          </button>
        </div>
        <p>
          <code>me</code>: {me ? <span data-testid="me-id">{me.id}</span> : 'loading…'}
        </p>
        <dl className="timers">
          <dt>Access token expires in</dt>
          <dd data-testid="expires-in">{seconds(expiresAt && expiresAt - now)}</dd>
          <dt>Next proactive refresh in</dt>
          <dd data-testid="refresh-in">{seconds(refreshAt && refreshAt - now)}</dd>
        </dl>
        <SwitchAccount log={log} />
      </div>

      <div className="card where" data-testid="token-locations">
        <h3>Where the tokens live</h3>
        <dl>
          <dt>Access token</dt>
          <dd data-testid="access-token-location">In this page's memory only: sent as <code>Authorization: Bearer …</code>, gone on reload.</dd>
          <dt>Refresh token</dt>
          <dd data-testid="refresh-token-location">
            In an encrypted <code>HttpOnly</code> cookie that the token handler at <code>/auth</code> sets: this page cannot read it,
            and it is sent only to this origin. A reload asks <code>/auth/refresh</code> for an access token.
          </dd>
        </dl>
      </div>

      <div className="card actions">
        <h3>Stress the session</h3>
        <div className="row">
          <label>
            Concurrent queries
            <input type="number" min={1} max={500} value={count} onChange={(e) => setCount(Number(e.target.value) || 1)} data-testid="burst-size" />
          </label>
          <button className="primary" onClick={fire} data-testid="fire">
            Fire {count} queries
          </button>
        </div>
        <p data-testid="burst-result" aria-live="polite">{burst}</p>
        <h4>Break it on purpose</h4>
        <p className="hint">The server side of a bad day: every access token expires, or every session is revoked.</p>
        <div className="row">
          <button className="danger" onClick={() => control('expire-access-tokens', 'Server: every access token expired now')} data-testid="expire">
            Expire access tokens now
          </button>
          <button className="danger" onClick={() => control('revoke-sessions', 'Server: every session revoked')} data-testid="revoke">
            Revoke session on server
          </button>
        </div>
      </div>

      <ServerCounters />

      <Ticker />

      <div className="card log">
        <h3>Event log</h3>
        <ol data-testid="event-log">
          {events.map((event) => (
            <li key={event.id} className={`event-${event.kind}`}>
              <time>{new Date(event.at).toLocaleTimeString()}</time> {event.text}
            </li>
          ))}
        </ol>
      </div>
    </section>
  );
}
