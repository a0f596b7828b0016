// src/SignInScreen.tsx: <AuthGate>'s fallback, with three ways in: a password, a sign-up, and a code sent by e-mail.
// The token handler holds the documents of the sign-up and the code (signIns.ts): the page names a door and sends
// its variables, and the refresh token of the answer stays in the handler's cookie.
import { useAuth } from 'apollo-link-token-pair/react';
import { type FormEvent, useState } from 'react';

const MODES = {
  password: { tab: 'Password', submit: 'Sign in' },
  signUp: { tab: 'Sign up', submit: 'Create account' },
  code: { tab: 'Code by e-mail', submit: 'Send me a code' },
};
type Mode = keyof typeof MODES;

export function SignInScreen() {
  const { login, signIn, error } = useAuth();
  const [mode, setMode] = useState<Mode>('password');
  // The e-mail a code went to: the form then asks for the code.
  const [codeSentTo, setCodeSentTo] = useState('');
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const email = String(form.get('email'));
    const password = String(form.get('password'));
    setBusy(true);
    try {
      if (mode === 'password') await login(email, password);
      // Its answer is a pair: the new account is signed in, with no login after it.
      else if (mode === 'signUp') await signIn('register', { email, password });
      else if (!codeSentTo) {
        // A step that begins no session: it resolves `{ next }` (here `{ email, expiresIn }`).
        await signIn('requestCode', { email });
        setCodeSentTo(email);
      } else await signIn('withCode', { email: codeSentTo, code: String(form.get('code')) });
    } catch {
      // Shown below from `error`, in the server's words: a wrong password or code, an e-mail already taken.
    } finally {
      setBusy(false);
    }
  }

  function choose(next: Mode) {
    setMode(next);
    setCodeSentTo('');
  }

  return (
    <form onSubmit={submit}>
      <p data-testid="status">Signed out</p>
      <nav>
        {(Object.keys(MODES) as Mode[]).map((each) => (
          <button key={each} type="button" aria-pressed={each === mode} onClick={() => choose(each)}>
            {MODES[each].tab}
          </button>
        ))}
      </nav>
      <input
        name="email"
        type="email"
        defaultValue="admin@demo.test"
        readOnly={!!codeSentTo}
        aria-label="Email"
        data-testid="email"
      />
      {mode !== 'code' && <input name="password" type="password" aria-label="Password" data-testid="password" />}
      {codeSentTo && (
        <>
          <p>We sent a code to {codeSentTo}.</p>
          <input name="code" autoComplete="one-time-code" inputMode="numeric" aria-label="Code" />
        </>
      )}
      <button type="submit" disabled={busy} data-testid="sign-in-button">
        {codeSentTo ? 'Sign in with the code' : MODES[mode].submit}
      </button>
      {error && (
        <p role="alert" data-testid="error">
          {error.message}
        </p>
      )}
    </form>
  );
}
