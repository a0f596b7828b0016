import { useCallback, useEffect, useState } from 'react';
import type { AuthServerStats } from '../server/createAuthServer.ts';

/** The counters of `GET /control/stats` that the card shows. */
type ServerStats = Pick<AuthServerStats, 'loginCalls' | 'refreshCalls' | 'refreshSuccesses' | 'reuseDetections' | 'logoutCalls' | 'tokenExpired'>;

/** The server's counters, polled every `interval` ms, and a function that loads them now. */
function useServerStats(interval: number) {
  const [stats, setStats] = useState<ServerStats | null>(null);
  const [reachable, setReachable] = useState(true);
  const load = useCallback(
    () =>
      fetch('/control/stats')
        .then((response) => response.json() as Promise<ServerStats>)
        .then((value) => {
          setStats(value);
          setReachable(true);
        })
        .catch(() => setReachable(false)),
    [],
  );
  useEffect(() => {
    void load();
    const timer = setInterval(load, interval);
    return () => clearInterval(timer);
  }, [load, interval]);
  return { stats, reachable, load };
}

const ROWS: ReadonlyArray<{ id: string; label: string; value: (stats: ServerStats) => string }> = [
  { id: 'logins', label: 'Logins', value: (stats) => String(stats.loginCalls) },
  { id: 'refreshes', label: 'Refreshes', value: (stats) => `${stats.refreshCalls} (${stats.refreshSuccesses} succeeded)` },
  { id: 'reuse', label: 'Reuse detections', value: (stats) => String(stats.reuseDetections) },
  { id: 'logouts', label: 'Logouts', value: (stats) => String(stats.logoutCalls) },
  { id: 'token-expired', label: 'TOKEN_EXPIRED answers', value: (stats) => String(stats.tokenExpired) },
];

/** What the demo server has counted since it started or since the last reset, with a button that resets it. */
export function ServerCounters() {
  const { stats, reachable, load } = useServerStats(500);
  const [resetting, setResetting] = useState(false);

  async function reset() {
    setResetting(true);
    try {
      await fetch('/control/reset-stats', { method: 'POST' });
      await load();
    } finally {
      setResetting(false);
    }
  }

  return (
    <div className="card counters" data-testid="server-counters">
      <h3>Server counters</h3>
      <p className="hint">What the demo server has seen since it started or since you reset the counters.</p>
      {!reachable && (
        <p className="error" role="alert" data-testid="counters-unreachable">
          The demo server cannot be reached.
        </p>
      )}
      {stats && (
        <dl className="counts" data-testid="stats">
          {ROWS.map((row) => (
            <div key={row.id}>
              <dt>{row.label}</dt>
              <dd data-testid={`counter-${row.id}`}>{row.value(stats)}</dd>
            </div>
          ))}
        </dl>
      )}
      <button className="secondary" onClick={reset} disabled={resetting} data-testid="reset-counters">
        Reset counters
      </button>
    </div>
  );
}
