import { useAuth } from 'apollo-link-token-pair/react';
import { useState } from 'react';
import { ACCOUNTS } from './accounts';
import { describeError } from './describeError';

/**
 * Signs in as another seeded account without logging out first: the login replaces the session, here and in
 * every other tab of the origin, which then say so.
 */
export function SwitchAccount() {
  const { user, login } = useAuth();
  const others = ACCOUNTS.filter((account) => account.email !== user?.email);
  const [email, setEmail] = useState(others[0]?.email ?? '');
  const [problem, setProblem] = useState('');
  const chosen = others.find((account) => account.email === email) ?? others[0];

  async function switchTo() {
    if (!chosen) return;
    setProblem('');
    try {
      // The event log tells the switch from the session's events (main.tsx).
      await login(chosen.email, chosen.password);
    } catch (error) {
      setProblem(describeError(error));
    }
  }

  return (
    <div className="switch">
      <label>
        Switch to
        <select
          value={chosen?.email}
          onChange={(event) => setEmail(event.target.value)}
          data-testid="switch-account-email"
        >
          {others.map((account) => (
            <option key={account.email} value={account.email}>
              {account.email} ({account.role})
            </option>
          ))}
        </select>
      </label>
      <button className="secondary" onClick={switchTo} data-testid="switch-account">
        Switch account
      </button>
      {problem && (
        <p className="error" role="alert">
          {problem}
        </p>
      )}
    </div>
  );
}
