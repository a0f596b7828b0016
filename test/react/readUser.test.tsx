// @vitest-environment happy-dom
import { ApolloClient, ApolloLink, InMemoryCache } from '@apollo/client';
import { ApolloProvider } from '@apollo/client/react';
import { act, cleanup, render, screen } from '@testing-library/react';
import { StrictMode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTokenAuth, type ReadUser, type TokenAuthTransport } from '../../src';
import { AuthGate, TokenAuthProvider, useAuth } from '../../src/react';
import { makeJwt } from '../helpers/jwt';

// Servers whose access tokens name the user otherwise than `sub` and one `role` (the apps migrated from
// apollo-link-token-refresh: `userId`, `roles[]`, `isAdmin`): readUser reads them, and hasRole and <AuthGate role>
// see every role, as a person sees the screen.

const disposers: Array<() => void> = [];
afterEach(() => {
  cleanup();
  for (const dispose of disposers.splice(0)) dispose();
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

/** A service whose 15-minute access tokens carry `claims` and no `sub`, and whose login answer names no user. */
function serviceOf(claims: Record<string, unknown>): TokenAuthTransport {
  const pair = () => {
    const iat = Math.floor(Date.now() / 1000);
    return { accessToken: makeJwt({ ...claims, iat, exp: iat + 900 }), refreshToken: `r${Math.random()}` };
  };
  return { login: async () => pair(), refresh: async () => pair(), logout: async () => true };
}

const readUser: ReadUser = (claims) => ({
  id: claims['userId'] as number,
  role: [...((claims['roles'] as string[] | undefined) ?? []), ...(claims['isAdmin'] ? ['ADMIN'] : [])],
});

function Screen() {
  const { user, hasRole } = useAuth();
  return (
    <>
      <p>
        User {user?.id}, roles {user?.roles?.join(' ')}, editor: {String(hasRole('EDITOR'))}
      </p>
      <AuthGate role="ADMIN" forbidden={<p>Admins only</p>}>
        <p>Admin tools</p>
      </AuthGate>
    </>
  );
}

async function signedIn(claims: Record<string, unknown>, options: { readUser?: ReadUser } = {}) {
  const auth = createTokenAuth({ transport: serviceOf(claims), refreshOnResume: false, ...options });
  disposers.push(() => auth.dispose());
  const client = new ApolloClient({ link: ApolloLink.empty(), cache: new InMemoryCache() });
  render(
    <StrictMode>
      <ApolloProvider client={client}>
        <TokenAuthProvider auth={auth} me={false}>
          <Screen />
        </TokenAuthProvider>
      </ApolloProvider>
    </StrictMode>,
  );
  await act(() => auth.login('a@b.test', 'pw'));
  return auth;
}

describe('readUser', () => {
  it('reads userId and roles[]: hasRole sees each role, and AuthGate lets the roles it names in', async () => {
    await signedIn({ userId: 42, roles: ['EDITOR', 'ADMIN'] }, { readUser });
    await screen.findByText('User 42, roles EDITOR ADMIN, editor: true');
    await screen.findByText('Admin tools');
  });

  it('reads a flag isAdmin as a role, and keeps the gate shut to a user without it', async () => {
    const auth = await signedIn({ userId: 'u_7', isAdmin: true }, { readUser });
    await screen.findByText('Admin tools');
    expect(auth.getState().user).toMatchObject({ id: 'u_7', role: 'ADMIN', roles: ['ADMIN'] });
    cleanup();
    await signedIn({ userId: 'u_8', isAdmin: false }, { readUser });
    await screen.findByText('Admins only');
    expect(screen.queryByText('Admin tools')).toBeNull();
  });

  it('says once, in development, that the user has no id, naming readUser', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const auth = await signedIn({ userId: 42, roles: ['ADMIN'] });
    await auth.refresh();
    await auth.login('a@b.test', 'pw');
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]![0])).toMatch(/has no id.*set `readUser` in createTokenAuth/s);
    // Without readUser the id is '' (no `sub`), and `roles` is no claim the default reads.
    expect(auth.getState().user).toMatchObject({ id: '', roles: [] });
  });

  it('says nothing in production, nor when readUser finds the id', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    vi.stubEnv('NODE_ENV', 'production');
    await signedIn({ userId: 42 });
    vi.unstubAllEnvs();
    cleanup();
    await signedIn({ userId: 42 }, { readUser });
    expect(warn).not.toHaveBeenCalled();
  });
});
