// A login throttle on Redis with rate-limiter-flexible: 5 refused logins per e-mail in 15 minutes, 20 per
// address in an hour, shared by every instance of the handler.
import type { Redis } from 'ioredis';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { LoginThrottle } from 'apollo-link-token-pair/server';

export function createRedisLoginThrottle(redis: Redis): LoginThrottle {
  const byEmail = new RateLimiterRedis({ storeClient: redis, keyPrefix: 'login-email', points: 5, duration: 15 * 60 });
  const byAddress = new RateLimiterRedis({
    storeClient: redis,
    keyPrefix: 'login-address',
    points: 20,
    duration: 60 * 60,
  });
  const emailKey = (email: string) => email.trim().toLowerCase();

  // Refused until the counts of this e-mail and this address are back under their limits.
  const waitFor = async (limiter: RateLimiterRedis, key: string | undefined): Promise<number> => {
    if (!key) return 0;
    const count = await limiter.get(key);
    return count && count.consumedPoints >= limiter.points ? count.msBeforeNext : 0;
  };

  return {
    async check({ email, address }) {
      const wait = Math.max(await waitFor(byEmail, emailKey(email)), await waitFor(byAddress, address));
      return wait > 0 ? { retryAfter: wait } : undefined;
    },
    async record({ email, address }, outcome) {
      if (outcome === 'accepted') return void (await byEmail.delete(emailKey(email)));
      // A refused login counts against the e-mail and the address; past the limit, consume() rejects, as intended.
      const spend = (limiter: RateLimiterRedis, key: string) =>
        limiter.consume(key).catch((reason: unknown) => {
          if (!(reason instanceof RateLimiterRes)) throw reason;
        });
      await Promise.all([spend(byEmail, emailKey(email)), address && spend(byAddress, address)]);
    },
  };
}
