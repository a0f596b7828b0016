import { type ApolloClient, type DocumentNode, gql, type TypedDocumentNode } from '@apollo/client';
import { getApolloContext } from '@apollo/client/react';
import { type ReactNode, useContext, useEffect, useMemo, useSyncExternalStore } from 'react';
import type { TokenAuth, TokenAuthState } from '../index';
import { AuthContext, type AuthBinding, type AuthContextValue, type Me, MeContext } from './AuthContext';
import { createShownState } from './createShownState';
import { createSignOutReset } from './createSignOutReset';
import { useMe } from './useMe';

const ME_QUERY: TypedDocumentNode<{ me: Me }> = gql`
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
  /**
   * The state a server rendered with: its session's `getState()` once an awaited restore is over, handed to the
   * page (it is plain JSON). It is the snapshot on the server and while the browser hydrates, so the server
   * shows the signed-in user rather than the restore, and the browser's first render matches that markup. It is
   * shown while the browser's session restores (no "loading" between the server's markup and the session's), and
   * the browser's own session takes over once it has read its pair.
   * @defaultValue `auth.getInitialState()`
   */
  serverState?: TokenAuthState;
  /**
   * The `me` query the provider sends at each sign-in, for `useAuth().me`: your own document (`me { id email role
   * … }`, with the fields your screens show) so that they read `useAuth().me` and no second `me` goes out, or
   * `false` for none (`me` is then always `null`).
   * @defaultValue `query TokenPairMe { me { id email } }`
   */
  me?: DocumentNode | false;
  children?: ReactNode;
}

/** The message of a provider that finds no Apollo client above it. */
const OUTSIDE_APOLLO =
  'apollo-link-token-pair: <TokenAuthProvider> must be inside <ApolloProvider>, which holds the client whose ' +
  'link is auth.link: <ApolloProvider client={client}><TokenAuthProvider auth={auth}>…</TokenAuthProvider>' +
  '</ApolloProvider>.';

/**
 * Makes a session available to {@link useAuth}. Place it inside `<ApolloProvider>`.
 *
 * @remarks
 * It only reads the session: the timer, the restore and every refresh belong to `auth`, so StrictMode's double
 * effects and remounts start nothing twice. Whenever the signed-in user goes (a logout here or in another tab,
 * `auth.logout()`, a session the service ended, a login as someone else here or elsewhere), it resets the Apollo
 * store (`resetStore()`): the cache is emptied and every mounted query, fragment and suspense query stops showing
 * that user's data at once, then each active query is fetched again, once, as whoever is signed in now (signed
 * out, it shows its error). A sign-in after a sign-out fetches the active queries again, as the user who signed
 * in. A login as the same user keeps the cache. A user who signs in before the previous user's reset is over
 * (another user's login, or a sign-in soon after a sign-out in a tab whose timers run late) is shown once it has
 * emptied the store: the screens that mount for them read nothing of the previous user's, and the reset aborts
 * none of their queries. On the server, and while hydrating, it renders the state the session started in, so the
 * markup matches.
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
export function TokenAuthProvider({ auth, serverState, me: meQuery = ME_QUERY, children }: TokenAuthProviderProps) {
  const client = useContext(getApolloContext()).client;
  if (!client) throw new Error(OUTSIDE_APOLLO);
  const userOf = (state: TokenAuthState) => (state.status === 'authenticated' && state.user?.id) || null;
  const initial = () => serverState ?? auth.getInitialState();
  // What the screens show: the provider's effect below tells it of each change of the session. The server's state
  // stands in for the session's first restore only, so a later serverState does not make another.
  const shown = useMemo(() => createShownState(auth, serverState), [auth]);
  const user = useSyncExternalStore(
    shown.subscribe,
    () => userOf(shown.get()),
    () => userOf(initial()),
  );
  const me = useMe(meQuery, ME_QUERY, user);

  const binding = useMemo<AuthBinding>(() => {
    let last: { state: TokenAuthState; me: Me | null; value: AuthContextValue } | undefined;
    const login: TokenAuth['login'] = (email, password) => auth.login(email, password);
    const signIn: TokenAuth['signIn'] = (name, variables) => auth.signIn(name, variables);
    const adopt: TokenAuth['adopt'] = (pair, user) => auth.adopt(pair, user);
    const logout = async () => {
      await auth.logout();
      await binding.cleared;
    };
    const binding: AuthBinding = {
      cleared: Promise.resolve(),
      auth,
      shown,
      initial,
      login,
      signIn,
      adopt,
      logout,
      view(state, me) {
        if (last?.state === state && last.me === me) return last.value;
        const roles = state.user?.roles ?? (state.user?.role === undefined ? [] : [state.user.role]);
        const value: AuthContextValue = {
          status: state.status,
          user: state.user,
          expiresAt: state.expiresAt,
          refreshAt: state.refreshAt,
          retry: state.retry ?? null,
          reconnecting: !!state.retry,
          ended: state.ended ?? null,
          me,
          error: state.error ?? null,
          login,
          signIn,
          adopt,
          logout,
          hasRole: (wanted) => (typeof wanted === 'string' ? [wanted] : wanted).some((one) => roles.includes(one)),
          auth,
        };
        last = { state, me, value };
        return value;
      },
    };
    return binding;
    // `initial` reads the serverState of the render that made the binding: a new serverState makes a new one.
  }, [auth, shown, serverState]);

  // However the session ends (a logout here or elsewhere, a refusal, a login as someone else), the signed-in
  // user's data goes, from the cache and from the screen. `resetStore()`, not `clearStore()`: both empty the cache
  // and drop what each ObservableQuery last delivered, but `clearStore()` discards the cache's watches without a
  // word, so a mounted useQuery, useSuspenseQuery, useReadQuery or useFragment kept rendering the previous user's
  // data (and a useFragment never heard from the cache again). `resetStore()` keeps the watches and broadcasts
  // the empty cache to them, which is what takes the data off the screen; the price is that active queries are
  // fetched again, once each (Apollo deduplicates the broadcast's fetch and the refetch): signed out, without a
  // token, and they show their error. The session has moved on by then, so none goes out with the previous
  // user's token, and an operation that waited on the old session is never replayed (the links end it).
  // A sign-in after a sign-out fetches the active queries again: those that stayed mounted would show their
  // signed-out error until remounted. The cache holds nothing of a user then, so no reset; and called at once,
  // before the re-render that starts `me`, which would otherwise go out twice. Not at the end of a restore: the
  // queries started meanwhile waited for it.
  // At a sign-out the reset waits for the screens behind an <AuthGate> to unmount (createSignOutReset); a user who
  // signs in before a reset is over is shown once it has emptied the store (createShownState).
  const signOutReset = useMemo(() => createSignOutReset(() => reset(client)), [client]);
  useEffect(() => {
    let last = auth.getState();
    const follow = (state: TokenAuthState) => {
      const was = userOf(last);
      const now = userOf(state);
      const before = last;
      last = state;
      // Signed in again before the reset a sign-out left for later: it runs now, and fetches the active queries.
      // The screens show the new user once it has emptied the store, so that those that mount for them read nothing
      // of the previous user's and start nothing it aborts (createShownState).
      if (now && signOutReset.flush()) return shown.hold(binding.cleared);
      // Another user: the screens stay, and their data goes at once; the new user is shown once it has.
      if (was && now) {
        if (now !== was) shown.hold((binding.cleared = reset(client)));
      } else if (was) binding.cleared = signOutReset.defer();
      else if (now && before.status === 'unauthenticated') client.refetchObservableQueries().catch(() => {});
    };
    const unsubscribe = auth.subscribe(() => {
      const state = auth.getState();
      if (state.status !== 'loading') follow(state);
      // The screens hear of the change once the store's part is decided.
      shown.changed();
    });
    return () => {
      unsubscribe();
      // Unmounted before the next render: the reset is done now, and a logout() waiting for it resolves.
      signOutReset.flush();
    };
  }, [auth, client, binding, shown, signOutReset]);
  useEffect(() => signOutReset.rendered());

  return (
    <AuthContext.Provider value={binding}>
      <MeContext.Provider value={me}>{children}</MeContext.Provider>
    </AuthContext.Provider>
  );
}

// Resets the store; settles once the cache is empty, before the refetch: a logout waits for the previous user's
// data to go, not for a network that may not answer. A refetch that fails shows in its own query; a reset that
// could not empty the cache is reported.
function reset(client: ApolloClient): Promise<void> {
  return new Promise((resolve) => {
    let cleared = false;
    const off = client.onResetStore(async () => {
      cleared = true;
      resolve();
    });
    client
      .resetStore()
      .then(off, (error: unknown) => {
        off();
        if (!cleared) console.error('apollo-link-token-pair: resetStore failed after the session ended.', error);
      })
      .finally(resolve);
  });
}
