import { gql } from '@apollo/client';
import { useQuery } from '@apollo/client/react';
import { AuthGate, useAuth } from 'apollo-link-token-pair/react';
import { type FormEvent, useState } from 'react';

// The provider sends it at each sign-in and restore (main.tsx); screens read `useAuth().me`.
export const ME = gql`
  query Me {
    me {
      id
      email
      role
    }
  }
`;

const CLUBS = gql`
  query Clubs {
    clubs {
      id
      name
    }
  }
`;

function SignIn() {
  const { login, error } = useAuth();
  const [busy, setBusy] = useState(false);
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    try {
      await login(String(form.get('email')), String(form.get('password')));
    } catch {
      // Shown below from `error`.
    } finally {
      setBusy(false);
    }
  }
  return (
    <form onSubmit={submit}>
      <p data-testid="status">Signed out</p>
      <input name="email" type="email" defaultValue="admin@demo.test" aria-label="Email" data-testid="email" />
      <input name="password" type="password" aria-label="Password" data-testid="password" />
      <button type="submit" disabled={busy} data-testid="sign-in-button">
        Sign in
      </button>
      {error && (
        <p role="alert" data-testid="error">
          {error.message}
        </p>
      )}
    </form>
  );
}

// Behind the AuthGate: sent only while someone is signed in, with the access token.
function Clubs() {
  const { data, error } = useQuery<{ clubs: Array<{ id: string; name: string }> }>(CLUBS);
  if (error) return <p data-testid="clubs">Clubs failed: {error.message}</p>;
  return (
    <p data-testid="clubs">
      {data ? `Your clubs: ${data.clubs.map((club) => club.name).join(', ')}` : 'Loading clubs…'}
    </p>
  );
}

function Account() {
  const { user, me, logout } = useAuth();
  return (
    <section>
      <p data-testid="status">Signed in as {user?.email}</p>
      <p data-testid="me">{me ? `me: ${me.email} (${String(me['role'])})` : 'Loading me…'}</p>
      <Clubs />
      <p>Reload the page, or close the tab and open it again: you stay signed in.</p>
      <button type="button" onClick={() => logout()} data-testid="sign-out">
        Sign out
      </button>
    </section>
  );
}

export function App() {
  return (
    <main>
      <h1>Vite, the token handler and apollo-link-token-pair</h1>
      <AuthGate loading={<p data-testid="status">Restoring your session…</p>} fallback={<SignIn />}>
        <Account />
      </AuthGate>
    </main>
  );
}
