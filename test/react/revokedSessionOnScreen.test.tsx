// @vitest-environment happy-dom
import { ApolloClient, ApolloLink, gql, HttpLink, InMemoryCache } from '@apollo/client';
import { ApolloProvider, useQuery } from '@apollo/client/react';
import { act, cleanup, render, screen } from '@testing-library/react';
import { StrictMode } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryTokenStore, createTokenAuth } from '../../src';
import { AuthGate, TokenAuthProvider, useAuth } from '../../src/react';
import { createTestClock } from '../../src/testing';
import { useCleanups } from '../helpers/overHttp';
import { startApolloServerSpec, startYogaSpec, type SpecServer } from '../interop/servers';
import type { SpecAuthServiceOptions } from '../interop/servers/specAuthService';
import { ADMIN, trackedFetch } from '../interop/specServer';

const cleanups = useCleanups();
afterEach(cleanup);

const CLUB = gql`
  query Club {
    club(id: "c1") {
      id
      name
    }
  }
`;

function Club() {
  const { data, error, refetch } = useQuery<{ club: { name: string } }>(CLUB);
  return (
    <div>
      <p data-testid="club">{data ? data.club.name : error ? `error: ${error.message}` : 'loading'}</p>
      <button onClick={() => void refetch().catch(() => {})}>reload</button>
    </div>
  );
}

function SignedOut() {
  const { ended } = useAuth();
  return (
    <p data-testid="signed-out">
      Signed out{ended?.reason === 'rejected' ? `: the server ended your session (${ended.message})` : ''}
    </p>
  );
}

describe.each([
  ['GraphQL Yoga 5 (no code)', startYogaSpec],
  ['Apollo Server 5 (INTERNAL_SERVER_ERROR)', startApolloServerSpec],
] as Array<[string, (options: SpecAuthServiceOptions) => Promise<SpecServer>]>)(
  'a session revoked on %s, with 15-minute tokens',
  (_name, start) => {
    it("shows the signed-out screen, with the server's words, within 5 s of the first refused operation", async () => {
      const clock = createTestClock();
      const server = await start({});
      cleanups.push(() => server.close());
      const fetch = trackedFetch(clock);
      const auth = createTokenAuth({
        uri: server.url,
        fetch,
        clock,
        store: createMemoryTokenStore(),
        refreshOnResume: false,
      });
      cleanups.push(() => auth.dispose());
      await auth.login(ADMIN.email, ADMIN.password);
      const client = new ApolloClient({
        link: ApolloLink.from([auth.link, new HttpLink({ uri: server.url, fetch })]),
        cache: new InMemoryCache(),
      });
      render(
        <StrictMode>
          <ApolloProvider client={client}>
            <TokenAuthProvider auth={auth}>
              <AuthGate fallback={<SignedOut />}>
                <Club />
              </AuthGate>
            </TokenAuthProvider>
          </ApolloProvider>
        </StrictMode>,
      );
      await act(() => clock.advance(100));
      expect(screen.getByTestId('club').textContent).toBe('Riverside');

      // An admin revokes every session of the user; the next operation is refused with "Not authenticated".
      server.service.revokeAll(ADMIN.id);
      await act(async () => screen.getByText('reload').click());
      const refusedAt = clock.now();
      while (!screen.queryByTestId('signed-out') && clock.now() - refusedAt < 5_000)
        await act(() => clock.advance(100));
      expect(clock.now() - refusedAt).toBeLessThanOrEqual(5_000);
      expect(screen.getByTestId('signed-out').textContent).toBe(
        'Signed out: the server ended your session (Invalid refresh token)',
      );
      expect(screen.queryByText('Riverside')).toBeNull();
      expect(server.service.stats).toMatchObject({ refreshes: 1, refreshSuccesses: 0 });
    });
  },
);
