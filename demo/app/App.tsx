import { AuthGate } from 'apollo-link-token-pair/react';
import { Dashboard } from './Dashboard';
import type { EventLog } from './eventLog';
import { LoginForm } from './LoginForm';

/** The demo: the login form when signed out, the session dashboard when signed in. */
export function App({ log }: { log: EventLog }) {
  return (
    <main>
      <header>
        <h1>apollo-link-token-pair</h1>
        <p>A JWT access/refresh pair with single-use refresh tokens, on Apollo Client 4.</p>
      </header>
      <AuthGate loading={<p className="card">Restoring session…</p>} fallback={<LoginForm log={log} />}>
        <Dashboard log={log} />
      </AuthGate>
    </main>
  );
}
