import { useContext, useSyncExternalStore } from 'react';
import type { TokenAuthState } from '../index';
import { AuthContext, type AuthContextValue, MeContext } from './AuthContext';

/**
 * The session as React state: `status`, `user` (with `role`), `me`, `reconnecting` and `retry`, `ended`,
 * `error`, `login`, `signIn`, `adopt`, `logout`, `hasRole`.
 *
 * @remarks
 * With a `selector`, the component re-renders only when what it selects changes: one that reads `status`
 * does not re-render at every refresh. Select a value or a stable object, not a new object per call.
 *
 * @throws An `Error` naming `<TokenAuthProvider>` when called outside one.
 *
 * @example
 * ```tsx
 * const { me, login, logout } = useAuth();
 * const status = useAuth((auth) => auth.status);
 * ```
 */
export function useAuth(): AuthContextValue;
export function useAuth<T>(selector: (value: AuthContextValue) => T): T;
export function useAuth<T>(selector?: (value: AuthContextValue) => T): T | AuthContextValue {
  const binding = useContext(AuthContext);
  const me = useContext(MeContext);
  if (!binding) throw new Error('useAuth must be used within <TokenAuthProvider auth={…}>.');
  const { shown, view, initial } = binding;
  // One cache per render: React reads the snapshot several times a render, and a selector that closes over
  // props or state is a new function at each render.
  let last: { value: AuthContextValue; selected: unknown } | undefined;
  const select = (state: TokenAuthState) => {
    const value = view(state, me);
    if (last?.value !== value) last = { value, selected: selector ? selector(value) : value };
    return last.selected as T | AuthContextValue;
  };
  return useSyncExternalStore(
    shown.subscribe,
    () => select(shown.get()),
    () => select(initial()),
  );
}
