/**
 * The session, its Apollo link, the stores and the transports: `createTokenAuth` and what it is built from.
 * React-free.
 *
 * @packageDocumentation
 * @module apollo-link-token-pair
 */
export { createTokenAuth, type TokenAuth } from './createTokenAuth';
export type { TokenAuthOptions, SessionEndEvent, RefreshEvent } from './core/session/TokenAuthOptions';
export type { RefreshTrigger } from './core/session/refreshTriggers';
export type { TokenAuthEvent, TokenAuthEventBody, OperationEvent } from './core/session/TokenAuthEvent';
export type { LockEvent } from './core/stores/openStore';
export { logTokenAuth, type LogTokenAuthOptions } from './core/timeline/logTokenAuth';
export type { ObservedSession } from './core/timeline/createTimeline';
export type { TokenAuthState, TokenUser, SessionEnd } from './core/session/TokenAuthState';
export type { ReadUser, UserFields } from './core/session/readTokenUser';
export type { TokenStore, TokenStorage } from './core/stores/TokenStore';
export type { TokenPair } from './core/tokens/TokenPair';
export { createMemoryTokenStore } from './core/stores/createMemoryTokenStore';
export { createTokenStore } from './core/stores/createTokenStore';
export { shareTokenStore, type SharedTokenStore, type ShareTokenStoreOptions } from './core/stores/shareTokenStore';
export { createBroadcastTokenStore, type BroadcastTokenStoreOptions } from './core/stores/createBroadcastTokenStore';
export {
  createSplitTokenStore,
  type SecretSlot,
  type SplitTokenStoreOptions,
  type WebStorageLike,
} from './core/stores/createSplitTokenStore';
export type { Lock } from './core/environment/lock';
export { type Clock, systemClock } from './core/environment/Clock';
export { getRetryDelay } from './core/session/getRetryDelay';
export { browserResume, type ResumeSource } from './core/environment/ResumeSource';
export type { TokenAuthTransport, TransportAnswer, SignInAnswer } from './core/transports/TokenAuthTransport';
export type {
  AdoptedPair,
  AnyVariables,
  SignInDocument,
  SignInDocuments,
  SignInNext,
  SignInVariables,
} from './core/transports/SignInDocuments';
export type { SignInResult } from './core/session/SignInResult';
export type { Door } from './core/session/TokenAuthEvent';
export { createGraphQLTransport, type GraphQLTransportOptions } from './core/transports/createGraphQLTransport';
export { createRestTransport } from './core/transports/createRestTransport';
export type {
  RestAnswer,
  RestAnswerPaths,
  RestEndpoint,
  RestLoginInput,
  RestLogoutInput,
  RestRefreshInput,
  RestRefusalOptions,
  RestTransportOptions,
} from './core/transports/RestTransportOptions';
export { isRestRefusal } from './core/transports/isRestRefusal';
export {
  COOKIE_STAND_IN,
  createCookieSessionStore,
  type CookieSessionStoreOptions,
} from './core/stores/createCookieSessionStore';
export {
  createTokenHandlerTransport,
  type TokenHandlerTransportOptions,
} from './core/transports/createTokenHandlerTransport';
export { isRefusal, type AuthCall } from './core/transports/isRefusal';
export { AuthRequestError } from './core/errors/AuthRequestError';
export { AuthRejectedError } from './core/errors/AuthRejectedError';
export { SessionEndedError, type SessionEndReason } from './core/errors/SessionEndedError';
export { TokenRefusedError } from './core/errors/TokenRefusedError';
export { LoginThrottledError } from './core/errors/LoginThrottledError';
export { isTokenExpiredError } from './link/isTokenExpiredError';
export { SKIP_TOKEN_AUTH } from './link/skipTokenAuth';
export { isUnauthenticatedError } from './link/isUnauthenticatedError';
