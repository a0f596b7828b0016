import { useAuth } from 'apollo-link-token-pair/react';
import { type FormEvent, useState } from 'react';
import { USERS } from '../server/users.ts';
import type { EventLog } from './eventLog';

const NOTES: Record<string, string> = { OWNER: 'organization owner', ADMIN: 'built-in staff role', Cashier: 'custom role' };
const ACCOUNTS = USERS.map(({ email, password, role }) => ({ email, password, role, note: NOTES[role] }));

/** Logs in with e-mail and password; the seeded accounts fill the form. */
export function LoginForm({ log }: { log: EventLog }) {
  const { login, error } = useAuth();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    try {
      const { user } = await login(email, password);
      log.add('login', `Logged in as ${user.email} (${user.role})`);
    } catch {
      // useAuth().error shows it.
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="card login" data-testid="login-form">
      <h2>Sign in</h2>
      <form onSubmit={submit}>
        <label>
          E-mail
          <input name="email" type="email" autoComplete="username" value={email} onChange={(e) => setEmail(e.target.value)} required />
        </label>
        <label>
          Password
          <input name="password" type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} required />
        </label>
        <button type="submit" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
        {error && (
          <p className="error" role="alert">
            {error.message}
          </p>
        )}
      </form>
      <h3>Seeded accounts</h3>
      <ul className="accounts">
        {ACCOUNTS.map((account) => (
          <li key={account.email}>
            <button
              type="button"
              className="link"
              data-testid={`account-${account.role}`}
              onClick={() => {
                setEmail(account.email);
                setPassword(account.password);
              }}
            >
              {account.email}
            </button>
            <span className="badge">{account.role}</span> <small>{account.note}</small>
          </li>
        ))}
      </ul>
    </section>
  );
}
