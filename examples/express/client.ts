// client.ts: the page: sign-in, sign-up and sign-out. It holds the access token only; the refresh token stays in
// the handler's HttpOnly cookie.
import { ApolloClient, ApolloLink, gql, HttpLink, InMemoryCache } from '@apollo/client';
import { createTokenAuth, createTokenHandlerTransport } from 'apollo-link-token-pair';

const auth = createTokenAuth({ transport: createTokenHandlerTransport('/auth') });
const client = new ApolloClient({
  link: ApolloLink.from([auth.link, new HttpLink({ uri: '/graphql' })]),
  cache: new InMemoryCache(),
});
const ME = gql`
  query Me {
    me {
      id
      email
      role
    }
  }
`;

const $ = <T extends HTMLElement>(id: string) => document.querySelector<T>(`[data-testid="${id}"]`)!;

async function show(): Promise<void> {
  const { status, user, error } = auth.getState();
  $('status').textContent =
    status === 'authenticated'
      ? `Signed in as ${user?.email ?? user?.id}`
      : status === 'loading'
        ? 'Restoring your session…'
        : 'Signed out';
  $('sign-in').hidden = status !== 'unauthenticated';
  $('sign-up').hidden = status !== 'unauthenticated';
  $('sign-out').hidden = status !== 'authenticated';
  $('error').textContent = status === 'unauthenticated' && error ? error.message : '';
  $('me').textContent = '';
  if (status !== 'authenticated') return;
  try {
    const { data } = await client.query<{ me: { email: string; role: string } }>({
      query: ME,
      fetchPolicy: 'network-only',
    });
    if (auth.getState().status === 'authenticated') $('me').textContent = `me: ${data?.me.email} (${data?.me.role})`;
  } catch (failure) {
    $('me').textContent = `me failed: ${(failure as Error).message}`;
  }
}

let shown = '';
auth.subscribe(() => {
  const { status, user } = auth.getState();
  // A refresh changes the state too: show again only when who is signed in changes.
  const now = `${status}:${user?.id ?? ''}`;
  if (now !== shown) ((shown = now), void show());
});
void show();

$<HTMLFormElement>('sign-in').addEventListener('submit', (event) => {
  event.preventDefault();
  const form = new FormData(event.currentTarget as HTMLFormElement);
  auth.login(String(form.get('email')), String(form.get('password'))).catch(() => show());
});
// A new account through the handler's `register` door (server.ts), signed in at once: the answer is a pair.
$<HTMLFormElement>('sign-up').addEventListener('submit', (event) => {
  event.preventDefault();
  const form = new FormData(event.currentTarget as HTMLFormElement);
  const variables = { email: String(form.get('email')), password: String(form.get('password')) };
  auth.signIn('register', variables).catch(() => show());
});
$('sign-out').addEventListener('click', () => {
  void auth.logout().then(() => client.clearStore());
});
