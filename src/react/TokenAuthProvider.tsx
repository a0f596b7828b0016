import { gql } from '@apollo/client';
import { useApolloClient, useQuery } from '@apollo/client/react';
import { type ReactNode, useEffect, useMemo, useSyncExternalStore } from 'react';
import type { TokenAuth } from '../createTokenAuth';
import type { TokenAuthState } from '../core/TokenAuthState';
import { AuthContext, type AuthBinding, type AuthContextValue, type Me, MeContext } from './AuthContext';

const ME_QUERY = gql`query TokenPairMe{me{id email}}`;

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
 * effects and remounts start nothing twice. On the server, and while hydrating, it renders the state the
 * session started in, so the markup matches.
 *
 * @example
 * ```tsx
 * import { ApolloProvider } from '@apollo/client/react';
 *
 * <ApolloProvider client={client}>
 *   <TokenAuthProvider auth={auth}>
 *     <App />
 *   </TokenAuthProvider>
 * </ApolloProvider>
 * ```
 */
export function TokenAuthProvider({ auth, children }: TokenAuthProviderProps) {
  const client = useApolloClient();
  const userOf = (state: TokenAuthState) => (state.status === 'authenticated' && state.user?.id) || null;
  const user = useSyncExternalStore(auth.subscribe, () => userOf(auth.getState()), () => userOf(auth.getInitialState()));
  const { data, refetch } = useQuery<{ me: Me }>(ME_QUERY, { skip: !user, fetchPolicy: 'network-only' });
  // `me` belongs to the signed-in user only: another user (a login here or in another tab) refetches it.
  const me = data?.me?.id === user ? data!.me : null;
  useEffect(() => {
    if (user && data?.me && !me) void refetch();
  }, [user, data]);

  const binding = useMemo<AuthBinding>(() => {
    let last: { state: TokenAuthState; me: Me | null; value: AuthContextValue } | undefined;
    const login: TokenAuth['login'] = async (email, password) => {
      const before = auth.getState().user?.id;
      const result = await auth.login(email, password);
      // Switching users without a logout in between: drop the previous user's data and refetch as the new one.
      if (before !== undefined && before !== result.user.id) await client.resetStore();
      return result;
    };
    const logout = async () => {
      await auth.logout();
      await client.clearStore();
    };
    return {
      auth,
      login,
      logout,
      view(state, me) {
        if (last?.state === state && last.me === me) return last.value;
        const role = state.user?.role;
        const value: AuthContextValue = {
          status: state.status,
          user: state.user,
          expiresAt: state.expiresAt,
          refreshAt: state.refreshAt,
          retry: state.retry ?? null,
          me,
          error: state.error ?? null,
          login,
          logout,
          hasRole: (wanted) => role !== undefined && (typeof wanted === 'string' ? wanted === role : wanted.includes(role)),
          auth,
        };
        last = { state, me, value };
        return value;
      },
    };
  }, [auth, client]);

  return (
    <AuthContext.Provider value={binding}>
      <MeContext.Provider value={me}>{children}</MeContext.Provider>
    </AuthContext.Provider>
  );
}
