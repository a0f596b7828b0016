// src/SignUpForm.tsx: a new account through the `register` door of src/signIns.ts, signed in at once.
import { useAuth } from 'apollo-link-token-pair/react';
import { type FormEvent, useState } from 'react';

export function SignUpForm() {
  const { signIn } = useAuth();
  const [busy, setBusy] = useState(false);
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    try {
      await signIn('register', { email: String(form.get('email')), password: String(form.get('password')) });
    } catch {
      // Shown by the sign-in form from `useAuth().error`, in the API's words (an e-mail already taken).
    } finally {
      setBusy(false);
    }
  }
  return (
    <form onSubmit={submit} data-testid="sign-up">
      <p>New here? Create an account:</p>
      <input name="email" type="email" placeholder="E-mail" data-testid="sign-up-email" />
      <input
        name="password"
        type="password"
        placeholder="Password (8 characters or more)"
        autoComplete="new-password"
        data-testid="sign-up-password"
      />
      <button type="submit" disabled={busy} data-testid="sign-up-button">
        Create account
      </button>
    </form>
  );
}
