/**
 * The session, its Apollo link, the stores and the transports: `createTokenAuth` and what it is built from.
 * React-free.
 *
 * @packageDocumentation
 * @module apollo-link-token-pair
 */
export { createTokenAuth, type TokenAuth } from './createTokenAuth';
export type { TokenAuthOptions, SessionEndEvent, RefreshEvent, RefreshTrigger } from './core/TokenAuthOptions';
export type { TokenAuthState, TokenUser, SessionEnd } from './core/TokenAuthState';
export type { TokenPair, TokenStore, MaybePromise } from './core/TokenStore';
export { createMemoryTokenStore } from './core/createMemoryTokenStore';
export { shareTokenStore, type SharedTokenStore, type ShareTokenStoreOptions } from './core/shareTokenStore';
export { createBroadcastTokenStore, type BroadcastTokenStoreOptions } from './core/createBroadcastTokenStore';
export {
  createSplitTokenStore,
  type SecretSlot,
  type SplitTokenStoreOptions,
  type WebStorageLike,
} from './core/createSplitTokenStore';
export type { Lock } from './core/lock';
export { type Clock, systemClock } from './core/Clock';
export { getRetryDelay } from './core/getRetryDelay';
export type { ResumeSource } from './core/ResumeSource';
export type { TokenAuthTransport, TransportAnswer } from './core/TokenAuthTransport';
export { createGraphQLTransport, type GraphQLTransportOptions } from './core/createGraphQLTransport';
export { AuthRequestError } from './core/AuthRequestError';
export { AuthRejectedError } from './core/AuthRejectedError';
export { SessionEndedError, type SessionEndReason } from './core/SessionEndedError';
export { isTokenExpiredError } from './link/isTokenExpiredError';
export { isUnauthenticatedError } from './link/isUnauthenticatedError';
