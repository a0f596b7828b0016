/**
 * The React binding: `TokenAuthProvider`, `useAuth` and `AuthGate`, for React 18 and 19, and
 * `BrowserTokenAuthProvider` for client components that a server renders too.
 *
 * @packageDocumentation
 * @module apollo-link-token-pair/react
 */
export { TokenAuthProvider, type TokenAuthProviderProps } from './TokenAuthProvider';
export {
  BrowserTokenAuthProvider,
  type BrowserTokenAuthProviderProps,
  type BrowserApp,
} from './BrowserTokenAuthProvider';
export { useAuth } from './useAuth';
export { AuthGate, type AuthGateProps } from './AuthGate';
export type { AuthContextValue, Me } from './AuthContext';
