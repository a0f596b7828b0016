import { AuthRejectedError, SessionEndedError } from 'apollo-link-token-pair';
import { useAuth } from 'apollo-link-token-pair/react';
import { type FormEvent, useState } from 'react';
import { SEEDED_ACCOUNTS } from './accounts';
import { describeError } from './describeError';
import { Field } from './Field';
import { FormProblem } from './FormProblem';
import { type SecondFactorChallenge, SecondFactorStep } from './SecondFactorStep';

/**
 * What of `useAuth().error` this form shows: a login's failure. Not a session the server ended (the notice above
 * the form tells it, with its reason), not a second factor (the form goes on to it), and not a sign-in door's
 * failure (the form that called the door shows it).
 */
function isLoginFailure(error: Error | null): error is Error {
  if (!error || SessionEndedError.is(error)) return false;
  if (AuthRejectedError.is(error) && error.code === 'SECOND_FACTOR_REQUIRED') return false;
  return (error as { operation?: string }).operation !== 'sign-in';
}

/**
 * Logs in with e-mail and password through the contract's `login()`; the seeded accounts fill the form. An account
 * with a second factor is refused there (`SECOND_FACTOR_REQUIRED`): the form then signs in through the `signIn`
 * door, which answers a challenge instead of a pair, and asks for the code.
 */
export function PasswordForm() {
  const { login, signIn, error } = useAuth();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [asked, setAsked] = useState<SecondFactorChallenge | null>(null);
  const [doorFailure, setDoorFailure] = useState<unknown>(undefined);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setDoorFailure(undefined);
    try {
      // The event log tells the login and its failure from the session's events (main.tsx).
      await login(email, password);
    } catch (failure) {
      // useAuth().error shows a wrong password under the form; a second factor goes on through the signIn door.
      if (AuthRejectedError.is(failure) && failure.code === 'SECOND_FACTOR_REQUIRED') {
        const answer = await signIn('signIn', { email, password }).catch((door: unknown) => setDoorFailure(door));
        const challenge = (answer?.next as { challenge?: unknown } | undefined)?.challenge;
        if (typeof challenge === 'string') setAsked({ email, challenge });
      }
    } finally {
      setBusy(false);
    }
  }

  if (asked) return <SecondFactorStep {...asked} onStartOver={() => setAsked(null)} />;
  return (
    <>
      <form onSubmit={submit}>
        <Field kind="email" value={email} onChange={setEmail} />
        <Field kind="password" value={password} onChange={setPassword} />
        <button type="submit" className="primary" disabled={busy} data-testid="sign-in">
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
        {doorFailure !== undefined ? (
          <FormProblem failure={doorFailure} testId="login-error" />
        ) : (
          isLoginFailure(error) && (
            <p className="error" role="alert" data-testid="login-error" title={error.message}>
              {describeError(error)}
            </p>
          )
        )}
      </form>
      <h3>Seeded accounts</h3>
      <p className="hint">
        Pick one to fill the form. The one with a second factor is refused by <code>login()</code>; the form then goes
        on through <code>signIn(&apos;signIn&apos;)</code> and asks for the code.
      </p>
      <ul className="accounts">
        {SEEDED_ACCOUNTS.map((account) => (
          <li key={account.email}>
            <button
              type="button"
              className="link"
              data-testid={account.testId}
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
    </>
  );
}
