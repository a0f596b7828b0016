import { AuthGate } from 'apollo-link-token-pair/react';
import { Dashboard } from './Dashboard';
import type { EventLog } from './eventLog';
import { EventLogCard } from './EventLogCard';
import { LoginForm } from './LoginForm';
import { ReconnectingBanner } from './ReconnectingBanner';
import { ServerCounters } from './ServerCounters';
import { SessionEndedNotice } from './SessionEndedNotice';

/** The demo: the login form when signed out, the session dashboard when signed in; why the last session ended. */
export function App({ log }: { log: EventLog }) {
  return (
    <main>
      <header>
        <h1>apollo-link-token-pair</h1>
        <p>A JWT access/refresh pair with single-use refresh tokens, on Apollo Client 4.</p>
      </header>
      <ReconnectingBanner />
      <SessionEndedNotice />
      <AuthGate
        loading={<p className="card">Restoring session…</p>}
        fallback={
          <div className="signed-out">
            <LoginForm />
            <EventLogCard log={log} />
            <ServerCounters />
          </div>
        }
      >
        <Dashboard log={log} />
      </AuthGate>
    </main>
  );
}
