import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { createRedisRotationCache } from '../../src/server/createRedisRotationCache';
import { createTokenHandler } from '../../src/server/createTokenHandler';
import { startDemoServer, useCleanups } from '../helpers/overHttp';
import { freePort, startRedisServer, stopRedisServer } from '../helpers/redisProcess';
import { postTo, SECRET, serveHandler } from '../helpers/tokenHandler';

// Redis failing while a rotation shared by two instances is upstream: killed, paused, or slower than a claim.
// Real redis-server processes, started and stopped by PID; the upstream is slow on purpose so that the fault
// lands in the middle of the rotation.
const cleanups = useCleanups();
const TIMEOUT = 1000;

async function twoInstances(port: number, upstreamDelay: number) {
  const upstream = await startDemoServer(cleanups);
  upstream.faults.delayMs.refreshToken = upstreamDelay;
  const origins: string[] = [];
  for (let i = 0; i < 2; i++) {
    const redis = new Redis({ host: '127.0.0.1', port, maxRetriesPerRequest: 1, retryStrategy: () => 50 });
    redis.on('error', () => {});
    cleanups.push(() => redis.disconnect());
    const handler = createTokenHandler({
      uri: upstream.url,
      secret: SECRET,
      timeout: TIMEOUT,
      cache: createRedisRotationCache(redis, 'mid:', 200),
      onError: () => {},
    });
    origins.push(await serveHandler(cleanups, handler));
  }
  const login = await postTo(origins[0]!, '/auth/login', { email: 'admin@demo.test', password: 'admin-pass' });
  const cookie = login.setCookie[0]!.split(';')[0]!;
  const { accessToken } = login.body as { accessToken: string };
  // Every tab and render of one browser, over both instances, presenting the token being renewed.
  const storm = (count = 10) =>
    Promise.all(
      Array.from({ length: count }, (_, i) => postTo(origins[i % 2]!, '/auth/refresh', { accessToken }, { cookie })),
    );
  return { upstream, origins, cookie, accessToken, storm };
}

describe('Redis failing in the middle of a rotation shared by two instances', () => {
  it('killed while the upstream renews: the rotating request gets its pair, the others 503 within the bound; restarted, the rest get the same pair, spent once', async () => {
    const port = await freePort();
    let redis = await startRedisServer(port);
    cleanups.push(() => stopRedisServer(redis, 'SIGKILL'));
    const { upstream, origins, accessToken, cookie, storm } = await twoInstances(port, 400);
    const rotating = postTo(origins[0]!, '/auth/refresh', { accessToken }, { cookie });
    await expect.poll(() => upstream.stats.refreshCalls, { interval: 10 }).toBe(1);
    await stopRedisServer(redis, 'SIGKILL');
    const killedAt = Date.now();
    const during = await storm();
    expect(Date.now() - killedAt).toBeLessThan(TIMEOUT + 1000);
    expect(
      during.every(
        (answer) => answer.status === 503 || (answer.status === 200 && answer.body.accessToken !== accessToken),
      ),
    ).toBe(true);
    const renewed = await rotating;
    expect(renewed.status).toBe(200);

    redis = await startRedisServer(port);
    const restarted = Date.now();
    let after = await storm();
    while (after.some((answer) => answer.status !== 200) && Date.now() - restarted < 5000) after = await storm();
    expect(after.map((answer) => answer.status)).toEqual(Array(10).fill(200));
    expect(new Set(after.map((answer) => answer.body.accessToken))).toEqual(new Set([renewed.body.accessToken]));
    expect(upstream.stats.refreshCalls).toBe(1);
    expect(upstream.stats.reuseDetections).toBe(0);
  });

  it('paused while the upstream renews: every request is answered within the bound, and after the pause the others get the same pair, spent once', async () => {
    const port = await freePort();
    const redis = await startRedisServer(port);
    cleanups.push(() => stopRedisServer(redis));
    const { upstream, origins, accessToken, cookie, storm } = await twoInstances(port, 300);
    const admin = new Redis({ host: '127.0.0.1', port });
    cleanups.push(() => admin.disconnect());
    const rotating = postTo(origins[0]!, '/auth/refresh', { accessToken }, { cookie });
    await expect.poll(() => upstream.stats.refreshCalls, { interval: 10 }).toBe(1);
    await admin.call('CLIENT', 'PAUSE', '1500', 'ALL');
    const pausedAt = Date.now();
    const during = await storm();
    expect(Date.now() - pausedAt).toBeLessThan(TIMEOUT + 1000);
    expect(during.every((answer) => answer.status === 503 || answer.status === 200)).toBe(true);
    const renewed = await rotating;
    expect(renewed.status).toBe(200);

    await new Promise((resolve) => setTimeout(resolve, 1500 - (Date.now() - pausedAt) + 100));
    const after = await storm();
    expect(after.map((answer) => answer.status)).toEqual(Array(10).fill(200));
    expect(new Set(after.map((answer) => answer.body.accessToken))).toEqual(new Set([renewed.body.accessToken]));
    expect(upstream.stats.refreshCalls).toBe(1);
    expect(upstream.stats.reuseDetections).toBe(0);
  });

  it('a claim outlives the slowest upstream call it guards: the call is cut at `timeout`, the claim lasts a second longer, so no second instance spends the token meanwhile', async () => {
    const port = await freePort();
    const redis = await startRedisServer(port);
    cleanups.push(() => stopRedisServer(redis));
    // The upstream takes 90% of the handler's timeout.
    const { upstream, storm } = await twoInstances(port, TIMEOUT * 0.9);
    const admin = new Redis({ host: '127.0.0.1', port });
    cleanups.push(() => admin.disconnect());
    const started = Date.now();
    const answers = storm(20);
    await expect.poll(() => upstream.stats.refreshCalls, { interval: 10 }).toBe(1);
    const [claim] = await admin.keys('mid:claim:*');
    // Still claimed for longer than the upstream call can go on.
    expect(await admin.pttl(claim!)).toBeGreaterThan(TIMEOUT - (Date.now() - started));
    const done = await answers;
    expect(done.map((answer) => answer.status)).toEqual(Array(20).fill(200));
    expect(new Set(done.map((answer) => answer.body.accessToken)).size).toBe(1);
    expect(upstream.stats.refreshCalls).toBe(1);
    expect(upstream.stats.reuseDetections).toBe(0);
  });
});
