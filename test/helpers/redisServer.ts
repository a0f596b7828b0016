import type { ChildProcess } from 'node:child_process';
import { Redis, type RedisOptions } from 'ioredis';
import { afterAll, beforeAll } from 'vitest';
import { freePort, startRedisServer, stopRedisServer } from './redisProcess';

export { freePort, startRedisServer, stopRedisServer } from './redisProcess';

/**
 * A real `redis-server` for the test file, started before its tests and stopped after them; `client()` makes a
 * client of it, disconnected by `cleanups`.
 */
export function useRedisServer(cleanups: Array<() => unknown>) {
  const redis = { port: 0, server: undefined as ChildProcess | undefined };
  beforeAll(async () => {
    redis.port = await freePort();
    redis.server = await startRedisServer(redis.port);
  });
  afterAll(() => stopRedisServer(redis.server));
  return Object.assign(redis, {
    client(options: RedisOptions = {}): Redis {
      const client = new Redis({ host: '127.0.0.1', port: redis.port, ...options });
      client.on('error', () => {});
      cleanups.push(() => client.disconnect());
      return client;
    },
  });
}
