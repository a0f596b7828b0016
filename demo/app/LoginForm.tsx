import { SessionEndedError } from 'apollo-link-token-pair';
import { useAuth } from 'apollo-link-token-pair/react';
import { type FormEvent, useState } from 'react';
import { ACCOUNTS } from './accounts';
import { describeError } from './describeError';

/** Logs in with e-mail and password; the seeded accounts fill the form. */
export function LoginForm() {
  const { login, error } = useAuth();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  // A session the server ended is told by the notice above the form, with its reason.
  const problem = error && !SessionEndedError.is(error) ? describeError(error) : null;

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    try {
      // The event log tells the login and its failure from the session's events (main.tsx).
      await login(email, password);
    } catch {
      // useAuth().error shows it under the form.
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
          <input
            name="email"
            type="email"
            autoComplete="username"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            required
          />
        </label>
        <label>
          Password
          <input
            name="password"
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            required
          />
        </label>
        <button type="submit" className="primary" disabled={busy} data-testid="sign-in">
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
        {problem && (
          <p className="error" role="alert" data-testid="login-error" title={error?.message}>
            {problem}
          </p>
        )}
      </form>
      <h3>Seeded accounts</h3>
      <p className="hint">Pick one to fill the form.</p>
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
