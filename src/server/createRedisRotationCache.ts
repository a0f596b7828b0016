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
 * @param wait - How long, in ms, each command may take before it fails. A paused or dead Redis then costs a
 *   request this long and a 503, instead of a wait on a client that queues commands until Redis is back.
 *   @defaultValue `1000`
 *
 * @example
 * ```ts
 * import Redis from 'ioredis';
 *
 * const handler = createTokenHandler({ uri, secret, cache: createRedisRotationCache(new Redis(process.env.REDIS_URL!)) });
 * ```
 */
export function createRedisRotationCache(redis: RedisCommands, prefix = 'token-handler:', wait = 1000): RotationCache {
  // A command that timed out may still run once Redis is back: a late claim then only delays that token's
  // rotation until its ttl, and a late outcome is the one the rotation produced, so neither spends a token.
  const bounded = <T>(command: Promise<T>): Promise<T> => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`Redis cannot be reached: no answer within ${wait} ms`)), wait);
    });
    return Promise.race([command, late]).finally(() => clearTimeout(timer));
  };
  return {
    claim: async (key, ttl) => (await bounded(redis.set(`${prefix}claim:${key}`, '1', 'PX', ttl, 'NX'))) === 'OK',
    release: async (key) => void (await bounded(redis.del(`${prefix}claim:${key}`))),
    put: async (key, outcome, ttl) => void (await bounded(redis.set(`${prefix}done:${key}`, outcome, 'PX', ttl))),
    get: (key) => bounded(redis.get(`${prefix}done:${key}`)),
  };
}
