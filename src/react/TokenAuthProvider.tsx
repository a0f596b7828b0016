import { gql } from '@apollo/client';
import { useApolloClient, useQuery } from '@apollo/client/react';
import { type ReactNode, useMemo, useSyncExternalStore } from 'react';
import type { TokenAuth } from '../createTokenAuth';
import { AuthContext, type AuthContextValue, type Me } from './AuthContext';

const ME_QUERY = gql`
  query TokenPairMe {
    me {
      id
      email
    }
  }
`;

/** Props of {@link TokenAuthProvider}. */
export interface TokenAuthProviderProps {
  /** The session from `createTokenAuth`; create it once, outside render. */
  auth: TokenAuth;
  children?: ReactNode;
}

/**
 * Makes a session available to {@link useAuth}. Place it inside `<ApolloProvider>`.
 *
 * @remarks
 * It only reads the session: the timer, the restore and every refresh belong to `auth`, so StrictMode's double
 * effects and remounts start nothing twice, and the provider is safe to render on the server.
 *
 * @example
 * ```tsx
 * <ApolloProvider client={client}>
 *   <TokenAuthProvider auth={auth}>
 *     <App />
 *   </TokenAuthProvider>
 * </ApolloProvider>
 * ```
 */
export function TokenAuthProvider({ auth, children }: TokenAuthProviderProps) {
  const state = useSyncExternalStore(auth.subscribe, auth.getState, auth.getState);
  const client = useApolloClient();
  const authenticated = state.status === 'authenticated';
  const { data } = useQuery<{ me: Me }>(ME_QUERY, { skip: !authenticated, fetchPolicy: 'network-only' });
  const me = authenticated && data?.me ? data.me : null;

  const value = useMemo<AuthContextValue>(() => {
    const role = state.user?.role;
    return {
      status: state.status,
      user: state.user,
      expiresAt: state.expiresAt,
      refreshAt: state.refreshAt,
      me,
      error: state.error ?? null,
      async login(email, password) {
        const before = auth.getState().user?.id;
        const result = await auth.login(email, password);
        // Switching users without a logout in between: drop the previous user's data and refetch as the new one.
        if (before !== undefined && before !== result.user.id) await client.resetStore();
        return result;
      },
      async logout() {
        await auth.logout();
        await client.clearStore();
      },
      hasRole: (wanted) => role !== undefined && (typeof wanted === 'string' ? wanted === role : wanted.includes(role)),
      auth,
    };
  }, [auth, client, state, me]);

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}
