import { gql } from '@apollo/client';
import { useQuery, useSubscription } from '@apollo/client/react';
import { AuthGate, useAuth } from 'apollo-link-token-pair/react';
import { type FormEvent, useState } from 'react';
import { showTicker, storeKind } from './auth';
import { Catalogue } from './Catalogue';
import { SignUpForm } from './SignUpForm';

const CLUBS = gql`
  query Clubs {
    clubs {
      id
      name
    }
  }
`;

// The provider sends it at each sign-in (main.tsx), and every screen reads `useAuth().me`: one `me` per sign-in.
export const ME = gql`
  query Me {
    me {
      id
      email
      role
    }
  }
`;

const TICKER = gql`
  subscription Ticker {
    ticker {
      n
      email
    }
  }
`;

// The API's events for the signed-in user, live. Keyed by the user (below): a new user's ticker starts empty
// instead of showing the last user's event until its own first one. `no-cache`: nothing else reads the ticker, and
// each event written to the cache (an object without an id) would keep a result in its read memo (50,000 kept).
function Ticker() {
  const { data, error } = useSubscription<{ ticker: { n: number; email: string } }>(TICKER, {
    fetchPolicy: 'no-cache',
  });
  return (
    <p data-testid="ticker">
      {data
        ? `Tick ${data.ticker.n} for ${data.ticker.email}`
        : error
          ? `Ticker failed: ${error.message}`
          : 'Waiting for the first tick…'}
    </p>
  );
}

function SignIn() {
  const { login, error, ended } = useAuth();
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
    <form onSubmit={submit} data-testid="sign-in">
      <p data-testid="status">Signed out{ended?.reason === 'logout' && ended.elsewhere ? ' in another tab' : ''}</p>
      <input name="email" type="email" defaultValue="admin@demo.test" data-testid="email" />
      <input name="password" type="password" placeholder="Password" data-testid="password" />
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

function Account() {
  const { user, logout, me } = useAuth();
  return (
    <section>
      <p data-testid="status">Signed in as {user?.email}</p>
      <p data-testid="me">{me ? `me: ${me.email} (${String(me['role'])})` : 'Loading me…'}</p>
      {showTicker && <Ticker key={user?.email} />}
      <button type="button" onClick={() => logout()} data-testid="sign-out">
        Sign out
      </button>
    </section>
  );
}

// Outside the AuthGate, as a header or a sidebar would be: it stays mounted when the user signs out. The provider
// resets the Apollo store then, so it shows the next user's clubs or its signed-out error, never the last one's.
function Clubs() {
  const { data, error } = useQuery<{ clubs: Array<{ id: string; name: string }> }>(CLUBS);
  return (
    <p data-testid="clubs">
      {data
        ? `Your clubs: ${data.clubs.map((club) => club.name).join(', ')}`
        : error
          ? 'Sign in to see your clubs.'
          : 'Loading clubs…'}
    </p>
  );
}

export function App() {
  return (
    <main>
      <h1>Vite and apollo-link-token-pair</h1>
      <p data-testid="store">Store: {storeKind}</p>
      <Catalogue />
      <Clubs />
      <AuthGate
        loading={<p data-testid="status">Restoring your session…</p>}
        fallback={
          <>
            <SignIn />
            <SignUpForm />
          </>
        }
      >
        <Account />
      </AuthGate>
    </main>
  );
}
