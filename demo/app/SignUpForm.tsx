import { useAuth } from 'apollo-link-token-pair/react';
import { type FormEvent, useState } from 'react';
import { Field } from './Field';
import { FormProblem } from './FormProblem';
import { useAction } from './useAction';

/**
 * Signs up through the `register` door: a new account (role MEMBER) whose first pair begins the session at once.
 * The server's words when it refuses (an e-mail taken, a password too short).
 */
export function SignUpForm() {
  const { signIn } = useAuth();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const { busy, failure, run } = useAction();

  async function submit(event: FormEvent) {
    event.preventDefault();
    // The dashboard replaces this form once the session begins; the log names the door.
    await run(() => signIn('register', { email, password }));
  }

  return (
    <form onSubmit={submit} data-testid="sign-up-form">
      <Field kind="email" value={email} onChange={setEmail} testId="sign-up-email" />
      <Field kind="new-password" value={password} onChange={setPassword} testId="sign-up-password" />
      <button type="submit" className="primary" disabled={busy} data-testid="sign-up">
        {busy ? 'Creating the account…' : 'Create account'}
      </button>
      <FormProblem failure={failure} testId="sign-up-error" />
      <p className="hint" data-testid="hint-sign-up">
        A new account (role MEMBER) is signed in at once: the dashboard shows, a reload keeps it, and the log says{' '}
        <code>signIn(&apos;register&apos;)</code>. An e-mail that has an account (admin@demo.test) or a password under 8
        characters is refused, in the server&apos;s words.
      </p>
    </form>
  );
}
