// @vitest-environment happy-dom
import { useQuery } from '@apollo/client/react';
import { gql } from '@apollo/client';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useAuth } from '../../src/react';
import { createTestSession, type TestSession } from '../../src/testing';
import { MINUTE } from './helpers';

const sessions: TestSession[] = [];
afterEach(async () => {
  cleanup();
  await Promise.all(sessions.splice(0).map((session) => session.dispose()));
});

async function session(options: Parameters<typeof createTestSession>[0] = {}) {
  const created = await createTestSession(options);
  sessions.push(created);
  return created;
}

const PING = gql`
  query Ping {
    ping(n: 7)
  }
`;

function Account() {
  const { status, user, me, error, hasRole, login, logout } = useAuth();
  const { data } = useQuery<{ ping: number }>(PING, { skip: status !== 'authenticated' });
  return (
    <div>
      <p data-testid="status">{status}</p>
      <p data-testid="me">{me?.email ?? '-'}</p>
      <p data-testid="role">{user?.role ?? '-'}</p>
      <p data-testid="cashier">{hasRole('Cashier') ? 'yes' : 'no'}</p>
      <p data-testid="ping">{data?.ping ?? '-'}</p>
      <p data-testid="error">{error?.name ?? '-'}</p>
      <button onClick={() => login('ada@example.test', 'secret').catch(() => {})}>login</button>
      <button onClick={() => logout()}>logout</button>
    </div>
  );
}

const text = (id: string) => screen.getByTestId(id).textContent;

describe('createTestSession', () => {
  it('signs in the chosen user and role, with its permission claims, and me comes from the server', async () => {
    const { wrapper, auth, user } = await session({
      user: {
        email: 'ada@example.test',
        role: 'Cashier',
        permissions: { clubPermissions: ['sales.read'], orgPermissions: [] },
      },
    });
    render(<Account />, { wrapper });
    await vi.waitFor(() => expect(text('me')).toBe('ada@example.test'));
    expect([text('status'), text('role'), text('cashier'), text('ping')]).toEqual([
      'authenticated',
      'Cashier',
      'yes',
      '7',
    ]);
    expect(auth.getState().user?.claims).toMatchObject({ sub: 'u_1', clubPermissions: ['sales.read'] });
    expect(user).toMatchObject({ id: 'u_1', email: 'ada@example.test', password: 'password', role: 'Cashier' });
  });

  it('expire(): the next query meets TOKEN_EXPIRED, and is replayed once after one refresh', async () => {
    const { wrapper, server, client, expire } = await session();
    render(<Account />, { wrapper });
    await screen.findByText('user@example.test');
    server.resetStats();
    expire();
    await act(() => client.refetchQueries({ include: 'active' }));
    expect(server.stats).toMatchObject({ tokenExpired: 2, refreshCalls: 1, refreshSuccesses: 1 });
    expect([text('status'), text('me'), text('ping')]).toEqual(['authenticated', 'user@example.test', '7']);
  });

  it('endSession(): the service ends the session and the component shows it signed out, with the error', async () => {
    const onSessionEnd = vi.fn();
    const { wrapper, endSession } = await session({ auth: { onSessionEnd } });
    render(<Account />, { wrapper });
    await screen.findByText('user@example.test');
    await act(() => endSession());
    expect([text('status'), text('me'), text('error')]).toEqual(['unauthenticated', '-', 'SessionEndedError']);
    expect(onSessionEnd).toHaveBeenCalledExactlyOnceWith(expect.objectContaining({ reason: 'rejected' }));
  });

  it('signedIn: false leaves the login to the test, through the component; logout revokes on the server', async () => {
    const { wrapper, server } = await session({
      signedIn: false,
      user: { email: 'ada@example.test', password: 'secret' },
    });
    render(<Account />, { wrapper });
    expect(text('status')).toBe('unauthenticated');
    fireEvent.click(screen.getByText('login'));
    await vi.waitFor(() => expect(text('me')).toBe('ada@example.test'));
    fireEvent.click(screen.getByText('logout'));
    // The session ends on the client at once; the revocation reaches the server just after.
    expect(text('status')).toBe('unauthenticated');
    await vi.waitFor(() => expect(server.stats).toMatchObject({ loginCalls: 1, logoutCalls: 1 }));
  });

  it('time passes on its clock: the session renews before expiry, and the component never sees a gap', async () => {
    const { wrapper, clock, server, auth } = await session({ server: { accessTokenTtl: 300 } });
    render(<Account />, { wrapper });
    await screen.findByText('user@example.test');
    const statuses: string[] = [];
    auth.subscribe(() => statuses.push(auth.getState().status));
    await act(() => clock.advance(60 * MINUTE));
    // 5-minute tokens with the default 2.5-minute lead: one refresh every 2.5 minutes.
    expect(server.stats.refreshSuccesses).toBe(24);
    expect(new Set(statuses)).toEqual(new Set(['authenticated']));
    expect(text('status')).toBe('authenticated');
  });

  it('dispose() stops the session: no timer is left on the clock', async () => {
    const created = await createTestSession();
    expect(created.clock.pending).toBe(1);
    await created.dispose();
    expect(created.clock.pending).toBe(0);
  });
});
