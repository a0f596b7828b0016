import type { ReactNode } from 'react';
import { useAuth } from './useAuth';

/** Props of {@link AuthGate}. */
export interface AuthGateProps {
  /** Shown when signed in (and, with `role`, holding one of the roles). */
  children?: ReactNode;
  /** Shown when signed out, typically the login form. @defaultValue nothing */
  fallback?: ReactNode;
  /** Shown while a stored session is being restored. @defaultValue nothing */
  loading?: ReactNode;
  /** Only these roles see `children`. */
  role?: string | readonly string[];
  /** Shown to a signed-in user without the role. @defaultValue nothing */
  forbidden?: ReactNode;
}

/**
 * Renders its children only for a signed-in user, optionally one with a given role.
 *
 * @remarks
 * This hides UI; it is not access control. The server enforces permissions from the role in the token.
 *
 * @example
 * ```tsx
 * <AuthGate fallback={<LoginForm />} loading={<Spinner />}>
 *   <Dashboard />
 *   <AuthGate role={['OWNER', 'ADMIN']}><Settings /></AuthGate>
 * </AuthGate>
 * ```
 */
export function AuthGate({ children, fallback = null, loading = null, role, forbidden = null }: AuthGateProps) {
  const { status, hasRole } = useAuth();
  return (
    <>
      {status === 'loading'
        ? loading
        : status === 'unauthenticated'
          ? fallback
          : role !== undefined && !hasRole(role)
            ? forbidden
            : children}
    </>
  );
}
