import { useAuth } from 'apollo-link-token-pair/react';
import { Burst } from './Burst';
import { Countdown } from './Countdown';
import type { EventLog } from './eventLog';
import { EventLogCard } from './EventLogCard';
import { LabControls } from './LabControls';
import { ServerCounters } from './ServerCounters';
import { StatusStrip } from './StatusStrip';
import { SwitchAccount } from './SwitchAccount';
import { Ticker } from './Ticker';

/**
 * The signed-in view: who, when the token dies, the event log next to it (on a phone right under it), then the
 * burst, the lab's controls, the server's counters, where the tokens live and the live subscription.
 */
export function Dashboard({ log }: { log: EventLog }) {
  const { user, me, logout } = useAuth();

  return (
    <section className="dashboard">
      <StatusStrip log={log} />
      <div className="card who" data-testid="me">
        <div className="who-head">
          <h2>
            <span className="email" data-testid="user-email">
              {me?.email ?? user?.email ?? '…'}
            </span>{' '}
            <span className={`badge role-${user?.role}`} data-testid="role">
              {user?.role}
            </span>
          </h2>
          <button className="secondary" onClick={() => logout()} data-testid="logout">
            Log out
          </button>
        </div>
        <p>
          <code>me</code>: {me ? <span data-testid="me-id">{me.id}</span> : 'loading…'}
        </p>
        <Countdown />
        <SwitchAccount />
      </div>

      <EventLogCard log={log} />

      <Burst log={log} />

      <ServerCounters />

      <LabControls log={log} />

      <div className="card where" data-testid="token-locations">
        <h3>Where the tokens live</h3>
        <dl>
          <dt>Access token</dt>
          <dd data-testid="access-token-location">
            In this page's memory only: sent as <code>Authorization: Bearer …</code>, gone on reload.
          </dd>
          <dt>Refresh token</dt>
          <dd data-testid="refresh-token-location">
            In an encrypted <code>HttpOnly</code> cookie that the token handler at <code>/auth</code> sets: this page
            cannot read it, and it is sent only to this origin. A reload asks <code>/auth/refresh</code> for an access
            token.
          </dd>
        </dl>
      </div>

      <Ticker />
    </section>
  );
}
