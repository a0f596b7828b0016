import { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AuthRejectedError, type TokenAuthTransport } from '../../src';
import { REFUSALS } from '../../src/internal';
import type { CookieSession, HandlerSession } from '../../src/server/HandlerSession';
import type { KeptOutcome, Outcome } from '../../src/server/Outcome';
import { createMemoryRotationCache, type RotationCache } from '../../src/server/RotationCache';
import { createRedisRotationCache } from '../../src/server/createRedisRotationCache';
import { createRotator, keyOf, type Rotator } from '../../src/server/createRotator';
import { createTokenHandler } from '../../src/server/createTokenHandler';
import { createCookieSealer } from '../../src/server/sealCookie';
import { APP, expectRenewedUpstream, openHandlerTab, tabStatuses } from '../helpers/handlerTabs';
import { startDemoServer, useCleanups } from '../helpers/overHttp';
import { freePort, startRedisServer, stopRedisServer } from '../helpers/redisProcess';
import { postTo, SECRET, serveHandler, startTokenHandler } from '../helpers/tokenHandler';

const cleanups = useCleanups();
const TIMEOUT = 3000;
const GRACE = 10_000;
const LIFE = 30 * 24 * 3600_000;
const session: HandlerSession = {
  refreshToken: 'r1',
  accessToken: 'a1',
  receivedAt: 0,
  refreshExpiresAt: LIFE,
  user: { id: 'u_1' },
};
const signal = new AbortController().signal;

/**
 * An upstream whose refreshes stay on the wire until the test fails them; `sent` resolves with the first.
 * (Not `vi.waitFor`: under fake timers it moves the clock while it waits.)
 */
function upstream() {
  const calls: Array<{ token: string; fail: (error: unknown) => void }> = [];
  let first!: () => void;
  const sent = new Promise<void>((resolve) => (first = resolve));
  const transport = {
    refresh: (token: string) => new Promise((_answer, fail) => (calls.push({ token, fail }), first())),
  } as unknown as TokenAuthTransport;
  return { transport, calls, sent };
}

/** An upstream that renews every token at once, to `r<n>`/`a<n>`. */
function renewing() {
  let n = 1;
  const refresh = vi.fn(async () => (n++, { accessToken: `a${n}`, refreshToken: `r${n}` }));
  return { transport: { refresh } as unknown as TokenAuthTransport, refresh };
}

/** Instances of a handler over one cache: each a rotator of its own, as each process has. */
function instance(cache: RotationCache, report: (error: unknown) => void = () => {}): Rotator {
  return createRotator({
    cache,
    secret: SECRET,
    timeout: TIMEOUT,
    graceTime: GRACE,
    sessionLife: LIFE,
    refusalTime: () => 60_000,
    now: () => Date.now(),
    report,
  });
}

/** Lets the rotations' awaits (the cache, the sealing of outcomes) run, and `ms` of the fake clock pass. */
const pass = (ms = 0) => vi.advanceTimersByTimeAsync(ms);

describe('createRotator', () => {
  beforeEach(() => void vi.useFakeTimers({ now: 1_000_000, toFake: ['setTimeout', 'clearTimeout', 'Date'] }));
  afterEach(() => void vi.useRealTimers());

  it('spends a refresh token once however many ask, here or on another instance, and each gets the same new session', async () => {
    const cache = createMemoryRotationCache();
    const [here, there] = [instance(cache), instance(cache)];
    const { transport, refresh } = renewing();
    const answers = await Promise.all([
      here.rotate(session, transport, signal),
      here.rotate(session, transport, signal),
    ]);
    const later = await there.rotate(session, transport, signal);

    expect(refresh).toHaveBeenCalledTimes(1);
    const renewed = {
      session: {
        ...session,
        refreshToken: 'r2',
        accessToken: 'a2',
        receivedAt: Date.now(),
        refreshExpiresAt: Date.now() + LIFE,
      },
    };
    expect(answers).toEqual([renewed, renewed]);
    expect(later).toEqual(renewed);
  });

  it('keeps a renewal for graceTime: past it, the spent token finds no outcome', async () => {
    const cache = createMemoryRotationCache();
    const rotator = instance(cache);
    await rotator.rotate(session, renewing().transport, signal);
    const key = await keyOf(session);
    await pass(GRACE - 1);
    expect(await rotator.newest(key)).toMatchObject({ session: { refreshToken: 'r2' } });
    await pass(1);
    expect(await rotator.newest(key)).toBeUndefined();
  });

  it('follows a kept outcome to the newest session it led to', async () => {
    const rotator = instance(createMemoryRotationCache());
    const { transport } = renewing();
    const first = await rotator.rotate(session, transport, signal);
    await rotator.rotate((first as { session: HandlerSession }).session, transport, signal);
    expect(await rotator.newest(await keyOf(session))).toMatchObject({
      session: { refreshToken: 'r3', accessToken: 'a3' },
    });
  });

  it('claims a rotation for a second longer than the upstream call it guards', async () => {
    const inner = createMemoryRotationCache();
    const ttls: number[] = [];
    const cache: RotationCache = { ...inner, claim: (key, ttl) => (ttls.push(ttl), inner.claim(key, ttl)) };
    await instance(cache).rotate(session, renewing().transport, signal);
    expect(ttls).toEqual([TIMEOUT + 1000]);
  });

  it.each<[string, unknown, Partial<HandlerSession>, Outcome]>([
    [
      'an answer without a refresh token: the token sent is kept, marked as not rotated',
      { accessToken: 'a2' },
      {},
      {
        session: {
          ...session,
          refreshToken: 'r1',
          accessToken: 'a2',
          refreshTokenKept: true,
          receivedAt: 1_000_000,
          refreshExpiresAt: 1_000_000 + LIFE,
        },
      },
    ],
    [
      'an answer without an access token: the session is over',
      { refreshToken: 'r2' },
      {},
      { status: 401, error: { code: 'SESSION_REVOKED', message: expect.any(String) as string } },
    ],
  ])('%s', async (_name, answer, fields, outcome) => {
    const transport = { refresh: async () => answer } as unknown as TokenAuthTransport;
    expect(await instance(createMemoryRotationCache()).rotate({ ...session, ...fields }, transport, signal)).toEqual(
      outcome,
    );
  });

  it.each<[string, Error, number | undefined, Partial<Outcome> & { status: number }]>([
    ['a refusal: revoked', new AuthRejectedError('no', 'refreshToken', []), undefined, { status: 401 }],
    [
      'an uncertain refusal, the first: no verdict, the cookie counts it',
      new AuthRejectedError('no', 'refreshToken', [], { uncertain: true }),
      undefined,
      { status: 503, keep: { ...session, uncertainRefusals: 1 } },
    ],
    [
      `an uncertain refusal, the last of ${REFUSALS} in a row: revoked`,
      new AuthRejectedError('no', 'refreshToken', [], { uncertain: true }),
      REFUSALS - 1,
      { status: 401 },
    ],
    ['no answer (the network): no verdict', new TypeError('fetch failed'), undefined, { status: 503 }],
  ])('the upstream refusing it with %s', async (_name, error, strikes, outcome) => {
    const transport = {
      refresh: () => Promise.reject(error),
    } as unknown as TokenAuthTransport;
    const presented = { ...session, ...(strikes !== undefined && { uncertainRefusals: strikes }) };
    expect(await instance(createMemoryRotationCache()).rotate(presented, transport, signal)).toMatchObject(outcome);
  });

  it('a rotation without a verdict lets go of its claim: the next request sends the token again', async () => {
    const rotator = instance(createMemoryRotationCache());
    const failing = { refresh: () => Promise.reject(new TypeError('fetch failed')) } as unknown as TokenAuthTransport;
    expect(await rotator.rotate(session, failing, signal)).toMatchObject({ status: 503 });
    const { transport, refresh } = renewing();
    expect(await rotator.rotate(session, transport, signal)).toMatchObject({ session: { refreshToken: 'r2' } });
    expect(refresh).toHaveBeenCalledTimes(1);
  });

  it("waits for another instance's rotation, and takes it over as soon as that one lets go without a verdict", async () => {
    const cache = createMemoryRotationCache();
    const [here, there] = [instance(cache), instance(cache)];
    const first = upstream();
    const failing = here.rotate(session, first.transport, signal);
    await first.sent;
    const { transport, refresh } = renewing();
    const started = Date.now();
    const waiting = there.rotate(session, transport, signal);
    await pass(500);
    expect(refresh).not.toHaveBeenCalled();

    first.calls[0]!.fail(new TypeError('fetch failed'));
    expect(await failing).toMatchObject({ status: 503 });
    await pass(25);
    expect(await waiting).toMatchObject({ session: { refreshToken: 'r2' } });
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('answers 503 once the bound (timeout + 1 s) is over, when it can neither claim the rotation nor find its outcome', async () => {
    let asked!: () => void;
    const claimed = new Promise<void>((resolve) => (asked = resolve));
    const rotator = instance({ ...createMemoryRotationCache(), claim: async () => (asked(), false) });
    const { transport, refresh } = renewing();
    let outcome: Outcome | undefined;
    void rotator.rotate(session, transport, signal).then((settled) => (outcome = settled));
    await claimed;
    await pass(TIMEOUT + 1000 - 25);
    expect(outcome).toBeUndefined();
    await pass(50);
    expect(outcome).toMatchObject({
      status: 503,
      error: { message: expect.stringContaining('another instance renewing this session did not finish in time') },
    });
    expect(refresh).not.toHaveBeenCalled();
  });

  it('never sends a token again that was sent without a verdict: its session ends as lost, and that is kept', async () => {
    const cache = createMemoryRotationCache();
    const key = await keyOf(session);
    // The instance that sent it stops on the wire: its upstream never answers, and its claim runs out.
    const stopping = upstream();
    void instance(cache).rotate(session, stopping.transport, signal);
    await stopping.sent;
    await cache.release(key);
    const { transport, refresh } = renewing();
    const there = instance(cache);

    expect(await there.rotate(session, transport, signal)).toMatchObject({
      status: 401,
      error: { code: 'SESSION_LOST' },
    });
    expect(await there.rotate(session, transport, signal)).toMatchObject({
      status: 401,
      error: { code: 'SESSION_LOST' },
    });
    expect(refresh).not.toHaveBeenCalled();
  });

  it('answers 503 and reports it when the cache fails, sending nothing upstream', async () => {
    const failure = new Error('cache down');
    const report = vi.fn();
    const cache: RotationCache = { ...createMemoryRotationCache(), claim: () => Promise.reject(failure) };
    const { transport, refresh } = renewing();
    expect(await instance(cache, report).rotate(session, transport, signal)).toMatchObject({ status: 503 });
    expect(report).toHaveBeenCalledWith(failure);
    expect(refresh).not.toHaveBeenCalled();
  });

  it('an outcome the cache did not take answers this instance, and is put again every 20 ms until the cache takes it', async () => {
    const inner = createMemoryRotationCache();
    const down = { put: true };
    const report = vi.fn();
    const cache: RotationCache = {
      ...inner,
      // The outcome only: the note that the token was sent goes in before the fault.
      put: (key, value, ttl) =>
        down.put && !key.endsWith(':sent') ? Promise.reject(new Error('cache down')) : inner.put(key, value, ttl),
    };
    const [here, there] = [instance(cache, report), instance(inner)];
    const renewed = await here.rotate(session, renewing().transport, signal);
    const key = await keyOf(session);
    expect(renewed).toMatchObject({ session: { refreshToken: 'r2' } });
    expect(report).toHaveBeenCalled();
    expect(await here.newest(key)).toEqual(renewed);
    expect(await there.newest(key)).toBeUndefined();

    await pass(20);
    expect(await there.newest(key)).toBeUndefined();
    down.put = false;
    await pass(20);
    expect(await there.newest(key)).toEqual(renewed);
  });

  it('notes a refused access token for every instance, and counts one refused while its rotation runs here', async () => {
    const cache = createMemoryRotationCache();
    const [here, there] = [instance(cache), instance(cache)];
    const key = await keyOf(session);
    expect(await there.refused(key)).toBe(false);
    await here.refuse(key);
    expect(await there.refused(key)).toBe(true);

    const other = { ...session, refreshToken: 'other' };
    const otherKey = await keyOf(other);
    const hanging = upstream();
    void here.rotate(other, hanging.transport, signal);
    await hanging.sent;
    expect(await here.refused(otherKey)).toBe(true);
    expect(await there.refused(otherKey)).toBe(false);
  });
});

// Each outcome as the rotation cache's seal holds it (a session in one-letter fields), and as the handler's logic
// reads it. Every version of the handler seals outcomes so: instances of two versions share the cache in a deploy.
const keptOutcomes: Array<[string, KeptOutcome<CookieSession>, KeptOutcome]> = [
  [
    'a renewal',
    { session: { r: 'r2', a: 'a2', u: { id: 'u_1' }, t: 5, e: 5 + LIFE, k: 1 } },
    {
      session: {
        refreshToken: 'r2',
        accessToken: 'a2',
        user: { id: 'u_1' },
        receivedAt: 5,
        refreshExpiresAt: 5 + LIFE,
        refreshTokenKept: true,
      },
    },
  ],
  [
    'a logout replaced by a sign-in',
    { status: 401, error: { code: 'SESSION_ENDED', message: 'ended' }, replaced: true },
    { status: 401, error: { code: 'SESSION_ENDED', message: 'ended' }, replaced: true },
  ],
];

describe('the outcomes the rotation cache keeps, sealed', () => {
  const sealer = createCookieSealer(SECRET, 'rotation');

  it.each(keptOutcomes)('opens %s as every version seals it', async (_name, sealed, outcome) => {
    const cache = createMemoryRotationCache();
    const key = await keyOf(session);
    await cache.put(key, await sealer.seal(sealed), GRACE);
    expect(await instance(cache).newest(key)).toEqual(outcome);
  });

  it.each(keptOutcomes)('seals %s as every version opens it', async (_name, sealed, outcome) => {
    const cache = createMemoryRotationCache();
    const key = await keyOf(session);
    expect(await instance(cache).keep(key, outcome, GRACE)).toBe(true);
    expect((await sealer.open(String(await cache.get(key))))?.value).toStrictEqual(sealed);
  });
});

describe('keyOf', () => {
  it('names a pair by its refresh token, and a pair whose refresh token did not rotate by both its tokens', async () => {
    const rotated = await keyOf({ refreshToken: 'r', accessToken: 'a1' });
    expect(rotated).toMatch(/^[0-9a-f]{64}$/);
    expect(await keyOf({ refreshToken: 'r', accessToken: 'a2' })).toBe(rotated);
    const kept = await keyOf({ refreshToken: 'r', accessToken: 'a1', refreshTokenKept: true });
    expect(kept).not.toBe(rotated);
    expect(await keyOf({ refreshToken: 'r', accessToken: 'a2', refreshTokenKept: true })).not.toBe(kept);
  });
});

/**
 * Two handler instances on one rotation cache in front of `uri`, the first reaching it through `firstFetch`; signed
 * in through the second.
 */
async function twoHandlersSignedIn(uri: string, cache: RotationCache, firstFetch: typeof fetch) {
  const options = { uri, secret: SECRET, timeout: TIMEOUT, cache, onError: () => {} };
  const origins = [
    await serveHandler(cleanups, createTokenHandler({ ...options, fetch: firstFetch })),
    await serveHandler(cleanups, createTokenHandler(options)),
  ];
  const login = await postTo(origins[1]!, '/auth/login', { email: 'admin@demo.test', password: 'admin-pass' });
  const cookie = login.setCookie[0]!.split(';')[0]!;
  const { accessToken } = login.body as { accessToken: string };
  return { origins, cookie, accessToken };
}

/** Two instances on one rotation cache; the first sends its refresh upstream, then stops as a killed process does. */
async function twoInstancesOneStopping() {
  const upstream = await startDemoServer(cleanups);
  const inner = createMemoryRotationCache();
  const claimed: string[] = [];
  // The claims the instances take, so that the test can let one run out as it does when its holder is gone.
  const cache: RotationCache = {
    ...inner,
    claim: async (key, ttl) => (await inner.claim(key, ttl)) && (claimed.push(key), true),
  };
  let out!: () => void;
  const sent = new Promise<void>((resolve) => (out = resolve));
  // The upstream gets the refresh, and answers it; the instance never reads the answer, nor does anything after.
  const stopping: typeof fetch = async (input, init) => {
    if (!String(init?.body).includes('refreshToken')) return fetch(input, init);
    await fetch(input, { ...init, signal: null });
    out();
    return new Promise<never>(() => {});
  };
  return { upstream, inner, claimed, sent, ...(await twoHandlersSignedIn(upstream.url, cache, stopping)) };
}

// Found by the soak (30 minutes, seed 1, at 195 s): an instance was SIGKILLed while its refresh was on the wire, with
// the API slowed to 2 s. The API spent the token; the answer died with the process. Once the claim ran out, the
// next instance sent the same token again: reuse, and the API revoked the session.
describe('an instance that stops while its refresh is on the wire', () => {
  it('never has its token sent again: the session ends as lost (401), with no reuse upstream', async () => {
    const rig = await twoInstancesOneStopping();
    void postTo(rig.origins[0]!, '/auth/refresh', { accessToken: rig.accessToken }, { cookie: rig.cookie }).catch(
      () => {},
    );
    await rig.sent;
    expect(rig.upstream.stats.refreshSuccesses).toBe(1);
    // The stopped instance's claim runs out: nothing of it is left but what it wrote before it sent the token.
    await rig.inner.release(rig.claimed[0]!);

    const after = await postTo(
      rig.origins[1]!,
      '/auth/refresh',
      { accessToken: rig.accessToken },
      { cookie: rig.cookie },
    );
    expect(after.status).toBe(401);
    expect(after.body).toMatchObject({ error: { code: 'SESSION_LOST' } });
    expect(rig.upstream.stats.reuseDetections).toBe(0);
    expect(rig.upstream.stats.refreshCalls).toBe(1);
    // Kept as the rotation's verdict: the next request with that cookie gets it too, without the upstream.
    const again = await postTo(
      rig.origins[1]!,
      '/auth/refresh',
      { accessToken: rig.accessToken },
      { cookie: rig.cookie },
    );
    expect(again.status).toBe(401);
    expect(rig.upstream.stats.refreshCalls).toBe(1);
  });
});

// Found by the soak (30 minutes, seed 2): an instance's upstream refresh failed during an outage, and a request
// waiting on another instance for that rotation waited out the whole bound (timeout + 1 s) before its 503, which
// reached the page seconds after the API was back.
describe('a rotation that fails upstream on one instance while another waits for it', () => {
  it('lets the waiting request go at once: it renews the session itself, well within the bound', async () => {
    const upstream = await startDemoServer(cleanups);
    const cache = createMemoryRotationCache();
    // The first instance's refresh fails after 300 ms, as during an outage (the API never got it); the second
    // instance asks while it is out.
    let out!: () => void;
    const sent = new Promise<void>((resolve) => (out = resolve));
    const outage: typeof fetch = async (input, init) => {
      if (String(init?.body).includes('refreshToken')) {
        out();
        await new Promise((resolve) => setTimeout(resolve, 300));
        return new Response('{"errors":[{"message":"Service Unavailable"}]}', {
          status: 503,
          headers: { 'content-type': 'application/json' },
        });
      }
      return fetch(input, init);
    };
    const { origins, cookie, accessToken } = await twoHandlersSignedIn(upstream.url, cache, outage);
    const failing = postTo(origins[0]!, '/auth/refresh', { accessToken }, { cookie });
    await sent;
    const started = Date.now();
    const waiting = await postTo(origins[1]!, '/auth/refresh', { accessToken }, { cookie });

    expect((await failing).status).toBe(503);
    expect(waiting.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(TIMEOUT);
    expect(upstream.stats.reuseDetections).toBe(0);
  });
});

const OWNER = { email: 'owner@demo.test', password: 'owner-pass' };
const UNAVAILABLE =
  '{"errors":[{"message":"Service Unavailable (soak fault)","extensions":{"code":"SERVICE_UNAVAILABLE"}}]}';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Two handlers over one rotation cache, as two instances over one Redis, in front of an upstream that answers
 * every call with HTTP 503 (after 300 ms) while `down` is set, as the soak's API front does.
 */
async function twoInstancesInOutage() {
  const outage = { down: false };
  const upstreamFetch: typeof fetch = async (input, init) => {
    if (!outage.down) return fetch(input, init);
    await sleep(300);
    return new Response(UNAVAILABLE, { status: 503, headers: { 'content-type': 'application/json' } });
  };
  const cache = createMemoryRotationCache();
  const options = { fetch: upstreamFetch, cache, origin: APP };
  const rig = await startTokenHandler(cleanups, { upstream: { accessTokenTtl: 6 }, handler: options });
  const other = await serveHandler(cleanups, createTokenHandler({ uri: rig.upstream.url, secret: SECRET, ...options }));
  return { rig, outage, instances: [rig.origin, other] };
}

// Found by the soak (30 minutes, seed 2): two handler instances share the rotation cache; the API answered 503 for
// 14 s. A tab's refresh reached one instance while the other held the claim on the session's refresh token; that
// rotation failed with the 503 and let its claim go with no outcome. A person signed out in that tab (its logout
// waits for its refresh to settle) and signed in again once the API was back; at the new session's first
// proactive refresh every tab was signed out ("rejected") by the handler, with no call to the API.
describe("a refresh that waited for another instance's rotation, the upstream answering 503, then a sign-out and sign-in", () => {
  it('the new session is renewed upstream at its proactive refresh, and every tab stays signed in', async () => {
    const { rig, outage, instances } = await twoInstancesInOutage();
    const [a, b] = instances as [string, string];
    const tabs = [openHandlerTab(cleanups, rig, a), openHandlerTab(cleanups, rig, a), openHandlerTab(cleanups, rig, b)];
    const signer = tabs[2]!;
    await vi.waitFor(() =>
      expect(tabStatuses(tabs)).toEqual(['unauthenticated', 'unauthenticated', 'unauthenticated']),
    );
    await signer.login(OWNER.email, OWNER.password);
    await vi.waitFor(() => expect(tabStatuses(tabs)).toEqual(['authenticated', 'authenticated', 'authenticated']));

    // The API goes away. A tab's refresh claims the rotation on one instance; a refresh of the signer's, on the
    // other, finds the claim taken and waits for its outcome; the rotation fails with the 503 and lets go.
    outage.down = true;
    const claimed = tabs[0]!.refresh().catch(() => {});
    await sleep(50);
    const sent = Date.now();
    const waited = signer.refresh().then(
      () => Date.now() - sent,
      () => Date.now() - sent,
    );
    await claimed;
    // It learns that the rotation got no verdict as soon as that rotation lets go, not after the whole claim.
    expect(await waited).toBeLessThan(1000);

    // The person signs out there (not awaited: the screen says "signed out" at once) and, once the API is back,
    // signs in again.
    const loggedOut = signer.logout().catch(() => {});
    await vi.waitFor(() =>
      expect(tabStatuses(tabs)).toEqual(['unauthenticated', 'unauthenticated', 'unauthenticated']),
    );
    await sleep(500);
    outage.down = false;
    await sleep(500);
    await signer.login(OWNER.email, OWNER.password);
    await vi.waitFor(() => expect(tabStatuses(tabs)).toEqual(['authenticated', 'authenticated', 'authenticated']));
    await loggedOut;
    await expectRenewedUpstream(cleanups, rig, tabs);
    expect(tabStatuses(tabs)).toEqual(['authenticated', 'authenticated', 'authenticated']);
    expect(rig.upstream.stats.reuseDetections).toBe(0);
  }, 40_000);
});

// Redis failing while a rotation shared by two instances is upstream: killed, paused, or slower than a claim.
// Real redis-server processes, started and stopped by PID; the upstream is slow on purpose so that the fault
// lands in the middle of the rotation.
const REDIS_TIMEOUT = 1000;

async function twoInstancesOverRedis(port: number, upstreamDelay: number) {
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
      timeout: REDIS_TIMEOUT,
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
    const { upstream, origins, accessToken, cookie, storm } = await twoInstancesOverRedis(port, 400);
    const rotating = postTo(origins[0]!, '/auth/refresh', { accessToken }, { cookie });
    await expect.poll(() => upstream.stats.refreshCalls, { interval: 10 }).toBe(1);
    await stopRedisServer(redis, 'SIGKILL');
    const killedAt = Date.now();
    const during = await storm();
    expect(Date.now() - killedAt).toBeLessThan(REDIS_TIMEOUT + 1000);
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
    const { upstream, origins, accessToken, cookie, storm } = await twoInstancesOverRedis(port, 300);
    const admin = new Redis({ host: '127.0.0.1', port });
    cleanups.push(() => admin.disconnect());
    const rotating = postTo(origins[0]!, '/auth/refresh', { accessToken }, { cookie });
    await expect.poll(() => upstream.stats.refreshCalls, { interval: 10 }).toBe(1);
    await admin.call('CLIENT', 'PAUSE', '1500', 'ALL');
    const pausedAt = Date.now();
    const during = await storm();
    expect(Date.now() - pausedAt).toBeLessThan(REDIS_TIMEOUT + 1000);
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
    const { upstream, storm } = await twoInstancesOverRedis(port, REDIS_TIMEOUT * 0.9);
    const admin = new Redis({ host: '127.0.0.1', port });
    cleanups.push(() => admin.disconnect());
    const started = Date.now();
    const answers = storm(20);
    await expect.poll(() => upstream.stats.refreshCalls, { interval: 10 }).toBe(1);
    const [claim] = await admin.keys('mid:claim:*');
    // Still claimed for longer than the upstream call can go on.
    expect(await admin.pttl(claim!)).toBeGreaterThan(REDIS_TIMEOUT - (Date.now() - started));
    const done = await answers;
    expect(done.map((answer) => answer.status)).toEqual(Array(20).fill(200));
    expect(new Set(done.map((answer) => answer.body.accessToken)).size).toBe(1);
    expect(upstream.stats.refreshCalls).toBe(1);
    expect(upstream.stats.reuseDetections).toBe(0);
  });
});
