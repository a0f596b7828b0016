'use client';
// app/SessionPanel.tsx: sign in, sign up, sign out, a query as the signed-in user, and (with `ticker`) a subscription.
import { gql } from '@apollo/client';
import { useApolloClient, useQuery } from '@apollo/client/react';
import { useAuth } from 'apollo-link-token-pair/react';
import { type FormEvent, useEffect, useState, useSyncExternalStore } from 'react';
import { Ticker } from './Ticker';

const ME = gql`
  query Me {
    me {
      id
      email
      role
    }
  }
`;

const never = () => () => {};

export function SessionPanel({ ticker = false }: { ticker?: boolean }) {
  const { status, user, error, login, signIn, logout, auth } = useAuth();
  const client = useApolloClient();
  const [busy, setBusy] = useState(false);
  // False in the server's HTML and until React hydrates: a click before then would submit the form natively, a GET
  // with the password in the URL, and reload the page signed out (seen in CI on a loaded machine).
  const hydrated = useSyncExternalStore(
    never,
    () => true,
    () => false,
  );
  // `?console` puts the session and the Apollo client on `window`, to drive them from the browser's console as
  // the soak does (`npm run soak`).
  useEffect(() => {
    if (new URLSearchParams(location.search).has('console')) Object.assign(window, { auth, client });
  }, [auth, client]);
  const me = useQuery<{ me: { id: string; email: string; role: string } }>(ME, { skip: status !== 'authenticated' });

  // The sign-in form logs in; the sign-up form runs the handler's `register` door (lib/tokenHandler.ts).
  const submitTo =
    (enter: (email: string, password: string) => Promise<unknown>) => async (event: FormEvent<HTMLFormElement>) => {
      event.preventDefault();
      const form = new FormData(event.currentTarget);
      setBusy(true);
      try {
        await enter(String(form.get('email')), String(form.get('password')));
      } catch {
        // Shown below from `error`.
      } finally {
        setBusy(false);
      }
    };

  if (status === 'loading') return <p data-testid="client-status">Restoring your session…</p>;
  if (status === 'unauthenticated') {
    return (
      <>
        <form onSubmit={submitTo(login)} data-testid="sign-in">
          <p data-testid="client-status">Signed out</p>
          <input name="email" type="email" placeholder="E-mail" defaultValue="admin@demo.test" data-testid="email" />
          <input name="password" type="password" placeholder="Password" data-testid="password" />
          <button type="submit" disabled={busy || !hydrated} data-testid="sign-in-button">
            Sign in
          </button>
          {error && (
            <p role="alert" data-testid="error">
              {error.message}
            </p>
          )}
        </form>
        <form onSubmit={submitTo((email, password) => signIn('register', { email, password }))} data-testid="sign-up">
          <p>New here? Create an account:</p>
          <input name="email" type="email" placeholder="E-mail" data-testid="sign-up-email" />
          <input
            name="password"
            type="password"
            placeholder="Password (8 characters or more)"
            data-testid="sign-up-password"
          />
          <button type="submit" disabled={busy || !hydrated} data-testid="sign-up-button">
            Create account
          </button>
        </form>
      </>
    );
  }
  return (
    <section>
      <p data-testid="client-status">Signed in as {user?.email ?? user?.id}</p>
      <p data-testid="me">
        {me.data
          ? `me: ${me.data.me.email} (${me.data.me.role})`
          : me.error
            ? `me failed: ${me.error.message}`
            : 'Loading me…'}
      </p>
      {ticker && <Ticker key={user?.email ?? user?.id} />}
      <button type="button" onClick={() => logout()} data-testid="sign-out">
        Sign out
      </button>
    </section>
  );
}
