import { ApolloClient, ApolloLink, InMemoryCache } from '@apollo/client';
import { ApolloProvider } from '@apollo/client/react';
import { type ReactNode, useState } from 'react';
import type { TokenAuth, TokenAuthState } from '../index';
import { TokenAuthProvider } from './TokenAuthProvider';

/** What {@link BrowserTokenAuthProviderProps.create} makes: the page's session and the Apollo client that uses its link. */
export interface BrowserApp {
  readonly auth: TokenAuth;
  readonly client: ApolloClient;
}

/** Props of {@link BrowserTokenAuthProvider}. */
export interface BrowserTokenAuthProviderProps {
  /**
   * Creates the session and the client. Called once per page load, in the browser only (however often the
   * provider renders or mounts, StrictMode included): define it at module scope, so that it is the same function
   * on every render.
   */
  create: () => BrowserApp;
  /** The state the server rendered with: see `TokenAuthProvider`'s `serverState` and `getServerState`. */
  serverState?: TokenAuthState;
  children?: ReactNode;
}

const created = new WeakMap<() => BrowserApp, BrowserApp>();
const LOADING: TokenAuthState = { status: 'loading', user: null };

/**
 * `ApolloProvider` and `TokenAuthProvider` for a client component that a server also renders (Next.js, Remix,
 * any SSR host): the session and the client are created in the browser only, once per page load, and a server
 * render gets a stand-in with no session and no network (an empty link, a cache of its own), showing
 * `serverState`. The browser hydrates to the same markup and shows it while its session restores; its own session
 * takes over once restored.
 *
 * @example
 * ```tsx
 * 'use client';
 * import { ApolloClient, ApolloLink, HttpLink, InMemoryCache } from '@apollo/client';
 * import { createTokenAuth, createTokenHandlerTransport, type TokenAuthState } from 'apollo-link-token-pair';
 * import type { ReactNode } from 'react';
 *
 * function createApp() {
 *   const auth = createTokenAuth({ transport: createTokenHandlerTransport('/auth') });
 *   const client = new ApolloClient({ link: ApolloLink.from([auth.link, new HttpLink({ uri: '/graphql' })]), cache: new InMemoryCache() });
 *   return { auth, client };
 * }
 * export function Providers({ serverState, children }: { serverState: TokenAuthState; children: ReactNode }) {
 *   return <BrowserTokenAuthProvider create={createApp} serverState={serverState}>{children}</BrowserTokenAuthProvider>;
 * }
 * ```
 */
export function BrowserTokenAuthProvider({ create, serverState, children }: BrowserTokenAuthProviderProps) {
  const [app] = useState(() => {
    if (typeof window === 'undefined') return serverStandIn(serverState ?? LOADING);
    let app = created.get(create);
    if (!app) created.set(create, (app = create()));
    return app;
  });
  return (
    <ApolloProvider client={app.client}>
      <TokenAuthProvider auth={app.auth} serverState={serverState}>
        {children}
      </TokenAuthProvider>
    </ApolloProvider>
  );
}

// A server render reads the state only: the provider subscribes, logs in and out in effects and handlers, which
// a server never runs.
function serverStandIn(state: TokenAuthState): BrowserApp {
  const unavailable = () =>
    Promise.reject(
      new Error(
        'apollo-link-token-pair: no session on the server; BrowserTokenAuthProvider creates it in the browser.',
      ),
    );
  const auth = {
    link: ApolloLink.empty(),
    getState: () => state,
    getInitialState: () => state,
    subscribe: () => () => {},
    login: unavailable,
    logout: unavailable,
    refresh: unavailable,
    getAccessToken: () => Promise.resolve(null),
    dispose() {},
  } as unknown as TokenAuth;
  return { auth, client: new ApolloClient({ link: ApolloLink.empty(), cache: new InMemoryCache() }) };
}
