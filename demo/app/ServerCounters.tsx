import { useAuth } from 'apollo-link-token-pair/react';
import { useState } from 'react';
import type { LabCounts, LabReport } from '../server/LabReport.ts';
import { loadLabReport, useLabReport } from './labReport';

type Totals = LabReport['totals'];

const ROWS: ReadonlyArray<{
  id: string;
  label: string;
  total: (totals: Totals) => string;
  mine?: (session: LabCounts) => string;
}> = [
  { id: 'logins', label: 'Logins', total: (t) => String(t.logins) },
  { id: 'failed-logins', label: 'Failed logins', total: (t) => String(t.failedLogins) },
  {
    id: 'refreshes',
    label: 'Refreshes',
    total: (t) => `${t.refreshes} (${t.refreshSuccesses} succeeded)`,
    mine: (s) => `${s.refreshes} (${s.refreshSuccesses} succeeded)`,
  },
  {
    id: 'reuse',
    label: 'Reuse detections',
    total: (t) => String(t.reuseDetections),
    mine: (s) => String(s.reuseDetections),
  },
  { id: 'logouts', label: 'Logouts', total: (t) => String(t.logouts), mine: (s) => String(s.logouts) },
  {
    id: 'token-expired',
    label: 'TOKEN_EXPIRED answers',
    total: (t) => String(t.tokenExpired),
    mine: (s) => String(s.tokenExpired),
  },
  {
    id: 'unavailable',
    label: '503 answers (server down)',
    total: (t) => String(t.unavailable),
    mine: (s) => String(s.unavailable),
  },
  { id: 'requests', label: 'Other requests', total: (t) => String(t.requests), mine: (s) => String(s.requests) },
];

/**
 * What the demo server has counted since it started or since the last reset, in total and for this page's
 * session, with a button that resets it.
 */
export function ServerCounters() {
  const { report, reachable } = useLabReport();
  const sid = useAuth((auth) => auth.user?.claims['sid']);
  const mine = report?.sessions.find((session) => session.sid === sid);
  const [resetting, setResetting] = useState(false);

  async function reset() {
    setResetting(true);
    try {
      await fetch('/control/reset-stats', { method: 'POST' });
      await loadLabReport();
    } finally {
      setResetting(false);
    }
  }

  return (
    <div className="card counters" data-testid="server-counters">
      <h3>Server counters</h3>
      <p className="hint">
        What the demo server has seen since it started or since you reset the counters: in all, and for this session.
      </p>
      {!reachable && (
        <p className="error" role="alert" data-testid="counters-unreachable">
          The demo server cannot be reached.
        </p>
      )}
      {report && (
        <table className="counts" data-testid="stats">
          <thead>
            <tr>
              <th scope="col"></th>
              <th scope="col">All</th>
              {mine && (
                <th scope="col" data-testid="session-column">
                  This session
                </th>
              )}
            </tr>
          </thead>
          <tbody>
            {ROWS.map((row) => (
              <tr key={row.id}>
                <th scope="row">{row.label}</th>
                <td data-testid={`counter-${row.id}`}>{row.total(report.totals)}</td>
                {mine && <td data-testid={`session-counter-${row.id}`}>{row.mine ? row.mine(mine) : ''}</td>}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {mine && (
        <p className="hint" data-testid="session-status">
          This session (…{mine.sid.slice(-6)}) on the server:{' '}
          <strong>{mine.status === 'reuse' ? 'revoked for reuse' : mine.status}</strong>
        </p>
      )}
      <button className="secondary" onClick={reset} disabled={resetting} data-testid="reset-counters">
        Reset counters
      </button>
    </div>
  );
}
