export {
  createTokenHandler,
  TOKEN_HANDLER_HEADER,
  type TokenHandler,
  type TokenHandlerOptions,
  type TokenHandlerCookieOptions,
  type TokenHandlerUser,
  type TokenHandlerError,
  type ServerSession,
} from './createTokenHandler';
export { createMemoryRotationCache, type RotationCache } from './RotationCache';
export { createRedisRotationCache, type RedisCommands } from './createRedisRotationCache';
export { toNodeHandler, type NodeHandlerOptions } from './toNodeHandler';
