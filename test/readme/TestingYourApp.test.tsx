// @vitest-environment happy-dom
import { useAuth } from 'apollo-link-token-pair/react';
import { createTestSession } from 'apollo-link-token-pair/testing';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { expect, it, vi } from 'vitest';

function Account() {
  const { status, me, logout } = useAuth();
  return status === 'authenticated' ? <button onClick={logout}>Sign out {me?.email}</button> : <p>Signed out</p>;
}

it('keeps the user signed in through token expiry, then signs out', async () => {
  const { wrapper, clock, server, client } = await createTestSession({
    user: { email: 'ada@example.test', role: 'ADMIN' },
  });
  render(<Account />, { wrapper });
  await screen.findByText('Sign out ada@example.test');
  await act(() => clock.advance(60 * 60_000)); // an hour: four 15-minute tokens, each renewed before it expired
  server.expireAllAccessTokens(); // the next query meets TOKEN_EXPIRED: one refresh, then the query is replayed
  await act(() => client.refetchQueries({ include: 'active' }));
  expect(server.stats).toMatchObject({ refreshSuccesses: 5, tokenExpired: 1 });
  screen.getByText('Sign out ada@example.test');

  fireEvent.click(screen.getByRole('button'));
  await screen.findByText('Signed out');
  await vi.waitFor(() => expect(server.stats.logoutCalls).toBe(1)); // the revocation follows the sign-out
});
