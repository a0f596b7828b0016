/**
 * The token auth devtools for React: `<TokenAuthDevtools auth={auth} />`, a panel with the session now and its
 * timeline, in the manner of the React Query Devtools. Nothing in a production build; load
 * `apollo-link-token-pair/devtools/production` for the panel there.
 *
 * @packageDocumentation
 * @module apollo-link-token-pair/devtools
 */
export { TokenAuthDevtools } from './TokenAuthDevtools';
export type { TokenAuthDevtoolsProps } from './TokenAuthDevtoolsPanel';
