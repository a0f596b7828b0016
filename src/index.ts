export { createTokenAuth, type TokenAuth, type TokenAuthOptions } from './createTokenAuth';
export { createMemoryTokenStore } from './core/createMemoryTokenStore';
export { createBroadcastTokenStore, type BroadcastTokenStoreOptions } from './core/createBroadcastTokenStore';
export {
  createSplitTokenStore,
  type SecretSlot,
  type SplitTokenStoreOptions,
  type WebStorageLike,
} from './core/createSplitTokenStore';
export type { TokenPair, TokenStore, MaybePromise } from './core/TokenStore';
export type { TokenAuthState, TokenUser } from './core/TokenAuthState';
export {
  TokenSession,
  type TokenSessionOptions,
  type SessionEndEvent,
  type RefreshEvent,
  type RefreshTrigger,
} from './core/TokenSession';
export { type Clock, systemClock } from './core/Clock';
export { type Lock, createLock } from './core/lock';
export { getTokenSchedule, type TokenSchedule, type TimingClaims } from './core/getTokenSchedule';
export { decodeAccessToken, type TokenClaims } from './core/readTokenPair';
export { AuthRequestError } from './core/AuthRequestError';
export { AuthRejectedError } from './core/AuthRejectedError';
export { SessionEndedError, type SessionEndReason } from './core/SessionEndedError';
export { TokenAuthLink, type AccessTokenSource } from './link/TokenAuthLink';
export { TokenExpiredLink, type TokenRecovery } from './link/TokenExpiredLink';
export { isTokenExpiredError } from './link/isTokenExpiredError';
