import { useContext } from 'react';
import { AuthContext, type AuthContextValue } from './AuthContext';

/**
 * The session as React state: `status`, `user` (with `role`), `me`, `error`, `login`, `logout`, `hasRole`.
 *
 * @throws An `Error` naming `<TokenAuthProvider>` when called outside one.
 *
 * @example
 * ```tsx
 * const { status, me, login, logout } = useAuth();
 * ```
 */
export function useAuth(): AuthContextValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error('useAuth must be used within <TokenAuthProvider auth={…}>.');
  return value;
}
