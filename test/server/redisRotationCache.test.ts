import { Redis, type RedisOptions } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { createTokenHandler } from '../../src/server/createTokenHandler';
import { createRedisRotationCache } from '../../src/server/createRedisRotationCache';
import { startDemoServer, useCleanups } from '../helpers/overHttp';
import { freePort, startRedisServer, useRedisServer } from '../helpers/redisServer';
import { openCookie, postTo, SECRET, serveHandler, startTokenHandler } from '../helpers/tokenHandler';

const cleanups = useCleanups();
const redis = useRedisServer(cleanups);
const client = (options: RedisOptions = {}) => redis.client(options);

describe('createRedisRotationCache', () => {
  it('grants a claim to exactly one of many concurrent claimers, across clients, for its ttl', async () => {
    const [a, b] = [client(), client()];
    const caches = [createRedisRotationCache(a), createRedisRotationCache(b)];
    const claims = await Promise.all(Array.from({ length: 20 }, (_, i) => caches[i % 2]!.claim('k-claim', 5000)));

    expect(claims.filter(Boolean)).toHaveLength(1);
    const ttl = await a.pttl('token-handler:claim:k-claim');
    expect(ttl).toBeGreaterThan(4000);
    expect(ttl).toBeLessThanOrEqual(5000);
  });

  it('lets another caller claim once the claim is released', async () => {
    const cache = createRedisRotationCache(client());
    expect(await cache.claim('k-release', 5000)).toBe(true);
    expect(await cache.claim('k-release', 5000)).toBe(false);
    await cache.release('k-release');
    expect(await cache.claim('k-release', 5000)).toBe(true);
  });

  it('keeps an outcome for its ttl, then forgets it', async () => {
    const redis = client();
    const cache = createRedisRotationCache(redis, 'test:');
    expect(await cache.get('k-put')).toBeNull();
    await cache.put('k-put', 'sealed-outcome', 150);

    expect(await cache.get('k-put')).toBe('sealed-outcome');
    expect(await redis.get('test:done:k-put')).toBe('sealed-outcome');
    const ttl = await redis.pttl('test:done:k-put');
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(150);
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(await cache.get('k-put')).toBeNull();
  });

  it('keeps claims and outcomes apart: a claim is no outcome', async () => {
    const cache = createRedisRotationCache(client());
    await cache.claim('k-apart', 5000);
    expect(await cache.get('k-apart')).toBeNull();
  });
});

describe('token handlers sharing Redis', () => {
  it('renew once upstream for 50 concurrent refreshes of one cookie split across two instances', async () => {
    const upstream = await startDemoServer(cleanups);
    const origins: string[] = [];
    for (let i = 0; i < 2; i++) {
      const handler = createTokenHandler({
        uri: upstream.url,
        secret: SECRET,
        cache: createRedisRotationCache(client()),
      });
      origins.push(await serveHandler(cleanups, handler));
    }
    const login = await postTo(origins[0]!, '/auth/login', { email: 'admin@demo.test', password: 'admin-pass' });
    expect(login.status).toBe(200);
    const cookie = login.setCookie[0]!.split(';')[0]!;
    const { accessToken } = login.body;

    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) => postTo(origins[i % 2]!, '/auth/refresh', { accessToken }, { cookie })),
    );

    expect(upstream.stats.refreshCalls).toBe(1);
    expect(upstream.stats.reuseDetections).toBe(0);
    expect(answers.map((answer) => answer.status)).toEqual(Array(50).fill(200));
    const tokens = new Set(answers.map((answer) => answer.body.accessToken));
    expect(tokens.size).toBe(1);
    expect(tokens.has(accessToken)).toBe(false);
    const newest = upstream.stats.refreshTokensIssued.at(-1);
    const held = await Promise.all(answers.map(async (answer) => (await openCookie(answer.setCookie[0] ?? ''))?.r));
    expect(new Set(held)).toEqual(new Set([newest]));

    // The renewed pair works on either instance, and the upstream accepts its access token.
    const next = await postTo(
      origins[1]!,
      '/auth/refresh',
      { accessToken: [...tokens][0] },
      { cookie: answers[0]!.setCookie[0]!.split(';')[0]! },
    );
    expect(next.status).toBe(200);
    expect(upstream.stats.refreshCalls).toBe(2);
    expect(upstream.stats.reuseDetections).toBe(0);
  });

  it('answers 503 UPSTREAM_UNAVAILABLE and spends nothing upstream when Redis cannot be reached', async () => {
    const closed = await freePort();
    const redis = new Redis({
      host: '127.0.0.1',
      port: closed,
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      enableOfflineQueue: false,
      retryStrategy: () => null,
    });
    redis.on('error', () => {});
    cleanups.push(() => redis.disconnect());
    const errors: Error[] = [];
    const rig = await startTokenHandler(cleanups, {
      handler: { cache: createRedisRotationCache(redis), onError: (error) => void errors.push(error) },
    });
    const login = await rig.post('login', { email: 'admin@demo.test', password: 'admin-pass' });
    expect(login.status).toBe(200);

    const answer = await rig.post('refresh', { accessToken: login.body.accessToken });
    expect(answer.status).toBe(503);
    expect(answer.body.error.code).toBe('UPSTREAM_UNAVAILABLE');
    expect(answer.setCookie).toEqual([]);
    expect(rig.upstream.stats.refreshCalls).toBe(0);
    expect(errors.length).toBeGreaterThan(0);

    // A page load needs no rotation: the cookie's fresh token is still handed out.
    const pageLoad = await rig.post('refresh', {});
    expect(pageLoad.status).toBe(200);
    expect(pageLoad.body.accessToken).toBe(login.body.accessToken);
  });

  it('answers 503 within its bound while Redis is paused mid-storm on two instances, spends nothing twice, and recovers unaided', async () => {
    const upstream = await startDemoServer(cleanups);
    const origins: string[] = [];
    for (let i = 0; i < 2; i++) {
      // A default ioredis client: while Redis is paused it would wait for an answer without end.
      const handler = createTokenHandler({
        uri: upstream.url,
        secret: SECRET,
        cache: createRedisRotationCache(client(), 'pause:', 200),
        onError: () => {},
      });
      origins.push(await serveHandler(cleanups, handler));
    }
    const login = await postTo(origins[0]!, '/auth/login', { email: 'admin@demo.test', password: 'admin-pass' });
    const cookie = login.setCookie[0]!.split(';')[0]!;
    const { accessToken } = login.body;

    await client().call('CLIENT', 'PAUSE', '1000', 'ALL');
    const started = Date.now();
    const paused = await Promise.all(
      Array.from({ length: 10 }, (_, i) => postTo(origins[i % 2]!, '/auth/refresh', { accessToken }, { cookie })),
    );
    expect(Date.now() - started).toBeLessThan(900);
    expect(paused.map((answer) => answer.status)).toEqual(Array(10).fill(503));
    expect(paused.every((answer) => answer.body.error.code === 'UPSTREAM_UNAVAILABLE')).toBe(true);
    expect(upstream.stats.refreshCalls).toBe(0);

    // Once the pause is over, the same cookie renews once across both instances, with no restart.
    await new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() - started) + 100));
    const after = await Promise.all(
      Array.from({ length: 10 }, (_, i) => postTo(origins[i % 2]!, '/auth/refresh', { accessToken }, { cookie })),
    );
    expect(after.map((answer) => answer.status)).toEqual(Array(10).fill(200));
    expect(upstream.stats.refreshCalls).toBe(1);
    expect(upstream.stats.reuseDetections).toBe(0);
  });

  it('answers 503 within its bound while Redis is killed under two instances, spends nothing twice, and recovers when it restarts', async () => {
    const own = await freePort();
    let redis = await startRedisServer(own);
    cleanups.push(() => redis.kill('SIGKILL'));
    const upstream = await startDemoServer(cleanups);
    upstream.faults.delayMs.refreshToken = 150;
    const origins: string[] = [];
    for (let i = 0; i < 2; i++) {
      const handler = createTokenHandler({
        uri: upstream.url,
        secret: SECRET,
        cache: createRedisRotationCache(client({ port: own }), 'kill:', 200),
        onError: () => {},
      });
      origins.push(await serveHandler(cleanups, handler));
    }
    const login = await postTo(origins[0]!, '/auth/login', { email: 'admin@demo.test', password: 'admin-pass' });
    const cookie = login.setCookie[0]!.split(';')[0]!;
    const { accessToken } = login.body;
    const storm = () =>
      Promise.all(
        Array.from({ length: 10 }, (_, i) => postTo(origins[i % 2]!, '/auth/refresh', { accessToken }, { cookie })),
      );

    // Killed (no persistence) with the storm about to start. A kill while a rotation is upstream loses its claim
    // and outcome with Redis, so a request still holding the old cookie after the restart may spend it again: the
    // known limit of a Redis without persistence (see the commit log of issue 21).
    redis.kill('SIGKILL');
    const killedAt = Date.now();
    const down = await storm();
    expect(Date.now() - killedAt).toBeLessThan(1000);
    expect(down.map((answer) => answer.status)).toEqual(Array(10).fill(503));
    expect(upstream.stats.refreshCalls).toBe(0);

    redis = await startRedisServer(own);
    const restarted = Date.now();
    let after = await storm();
    while (after.some((answer) => answer.status !== 200) && Date.now() - restarted < 5000) after = await storm();
    expect(upstream.stats.reuseDetections).toBe(0);
    expect(after.map((answer) => answer.status)).toEqual(Array(10).fill(200));
    expect(upstream.stats.refreshCalls).toBe(1);
  });
});
