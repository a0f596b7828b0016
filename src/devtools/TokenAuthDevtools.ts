import type { ReactElement } from 'react';
import { TokenAuthDevtoolsPanel, type TokenAuthDevtoolsProps } from './TokenAuthDevtoolsPanel';

// No @types/node in the build: the one name of Node's that bundlers replace.
declare const process: { env: { NODE_ENV?: string } };

/**
 * The token auth devtools in development, nothing in production: a toggle in a corner of the page that opens a
 * panel with the session now (its status, the user, the access token's expiry and the proactive refresh counting
 * down by the session's clock, a retry, how the last session ended) and its timeline (logins, refreshes with their
 * trigger and outcome, waits, operations held and replayed, the end), filtered by kind. It never shows a token.
 *
 * @remarks
 * It reads `process.env.NODE_ENV`, which bundlers replace: in a production build it is `() => null` and the
 * panel's code drops out. Escape closes the panel. To load it in production on purpose, import
 * `apollo-link-token-pair/devtools/production`, lazily.
 *
 * @example
 * ```tsx
 * import { ApolloProvider } from '@apollo/client/react';
 *
 * <ApolloProvider client={client}>
 *   <TokenAuthProvider auth={auth}>
 *     <App />
 *   </TokenAuthProvider>
 *   <TokenAuthDevtools auth={auth} position="bottom-left" />
 * </ApolloProvider>
 * ```
 */
export const TokenAuthDevtools: (props: TokenAuthDevtoolsProps) => ReactElement | null =
  process.env.NODE_ENV === 'production' ? () => null : TokenAuthDevtoolsPanel;
