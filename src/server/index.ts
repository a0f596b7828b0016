/**
 * The token handler, for your server: it keeps the refresh token in an encrypted `HttpOnly` cookie, so a
 * browser session survives a reload, and yields the access token for server rendering.
 *
 * @packageDocumentation
 * @module apollo-link-token-pair/server
 */
export {
  createTokenHandler,
  TOKEN_HANDLER_HEADER,
  type TokenHandler,
  type TokenHandlerOptions,
  type TokenHandlerCookieOptions,
  type UpstreamContext,
  type TokenHandlerUser,
  type TokenHandlerError,
  type ServerSession,
  type AdoptedSession,
} from './createTokenHandler';
export { createMemoryRotationCache, type RotationCache } from './RotationCache';
export { createRedisRotationCache, type RedisCommands } from './createRedisRotationCache';
export { toNodeHandler, type NodeHandlerOptions } from './toNodeHandler';
export type { Secrets } from './sealCookie';
export type { LoginThrottle, LoginAttempt } from './LoginThrottle';
export { MAX_CHUNKS } from './sessionCookie';
export { asSignedOut } from './asSignedOut';
export { getServerState } from './getServerState';
