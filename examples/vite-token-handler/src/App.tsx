import { gql } from '@apollo/client';
import { useQuery } from '@apollo/client/react';
import { AuthGate, useAuth } from 'apollo-link-token-pair/react';
import { SignInScreen } from './SignInScreen';

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
      <AuthGate loading={<p data-testid="status">Restoring your session…</p>} fallback={<SignInScreen />}>
        <Account />
      </AuthGate>
    </main>
  );
}
