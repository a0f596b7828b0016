// app/page.tsx: rendered on the server as the signed-in user, with one Apollo client per request so that no
// user's data is shared between requests.
import { ApolloClient, gql, HttpLink, InMemoryCache } from '@apollo/client';
import { asSignedOut, getServerState } from 'apollo-link-token-pair/server';
import { headers } from 'next/headers';
import { Providers } from './Providers';
import { SessionPanel } from './SessionPanel';

export const dynamic = 'force-dynamic';

export default async function Page({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  // `?ticker` shows the API's `ticker` subscription, when the app was built with NEXT_PUBLIC_GRAPHQL_WS_URL.
  const ticker = 'ticker' in (await searchParams) && !!process.env.NEXT_PUBLIC_GRAPHQL_WS_URL;
  const proxied = await headers();
  const accessToken = proxied.get('x-access-token');
  const unknown = proxied.get('x-session-unknown') === '1';
  const client = new ApolloClient({
    link: new HttpLink({
      uri: process.env.GRAPHQL_URL,
      headers: accessToken ? { authorization: `Bearer ${accessToken}` } : {},
    }),
    cache: new InMemoryCache(),
  });
  // A session revoked elsewhere (or logged out a moment ago) renders signed out, not a 500; any other failure (an
  // API that cannot be reached, or fails) renders the session unchecked (`undefined`), as the proxy's outage does:
  // the browser finds out, and a person sees no error page for a session that may be fine.
  const me = accessToken
    ? await client
        .query<{ me: { email: string } }>({
          query: gql`
            query Me {
              me {
                id
                email
              }
            }
          `,
        })
        .then(({ data }) => data?.me ?? null, asSignedOut)
        .catch(
          (error: unknown) =>
            void console.warn('The server render could not check the session; the browser will:', error),
        )
    : null;
  const unchecked = unknown || me === undefined;
  return (
    <main>
      <h1>Next.js and apollo-link-token-pair</h1>
      <p data-testid="server-user">
        {me
          ? `Server rendered for ${me.email}`
          : unchecked
            ? 'Server rendered before the session could be checked'
            : 'Server rendered signed out'}
      </p>
      {/* During an outage the browser finds out: a person does not see "Signed out" for a session that exists. */}
      <Providers serverState={unchecked ? { status: 'loading', user: null } : getServerState(me && accessToken)}>
        <SessionPanel ticker={ticker} />
      </Providers>
    </main>
  );
}
