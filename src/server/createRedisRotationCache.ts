import type { RotationCache } from './RotationCache';

/**
 * The commands {@link createRedisRotationCache} sends, as `ioredis` names them. Wrap another client to this
 * shape (node-redis: `set: (key, value, _px, ms, nx) => client.set(key, value, { PX: ms, NX: nx === 'NX' })`).
 */
export interface RedisCommands {
  set(key: string, value: string, px: 'PX', ms: number, nx?: 'NX'): Promise<unknown>;
  get(key: string): Promise<string | null>;
  del(key: string): Promise<unknown>;
}

/**
 * Creates a {@link RotationCache} in Redis, for token handlers running on several instances: a claim is a
 * `SET … PX ttl NX`, so exactly one instance wins it, and outcomes expire on their own.
 *
 * @param redis - A connected client: an `ioredis` instance as it is, or a wrapper (see {@link RedisCommands}).
 * @param prefix - Prepended to every key. @defaultValue `'token-handler:'`
 *
 * @example
 * ```ts
 * import Redis from 'ioredis';
 *
 * const handler = createTokenHandler({ uri, secret, cache: createRedisRotationCache(new Redis(process.env.REDIS_URL!)) });
 * ```
 */
export function createRedisRotationCache(redis: RedisCommands, prefix = 'token-handler:'): RotationCache {
  return {
    claim: async (key, ttl) => (await redis.set(`${prefix}claim:${key}`, '1', 'PX', ttl, 'NX')) === 'OK',
    release: async (key) => void (await redis.del(`${prefix}claim:${key}`)),
    put: async (key, outcome, ttl) => void (await redis.set(`${prefix}done:${key}`, outcome, 'PX', ttl)),
    get: (key) => redis.get(`${prefix}done:${key}`),
  };
}
