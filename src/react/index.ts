export { TokenAuthProvider, type TokenAuthProviderProps } from './TokenAuthProvider';
export { useAuth } from './useAuth';
export { AuthGate, type AuthGateProps } from './AuthGate';
export type { AuthContextValue, Me } from './AuthContext';
