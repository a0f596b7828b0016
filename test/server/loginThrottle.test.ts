import { describe, expect, it, vi } from 'vitest';
import { createTokenAuth, createTokenHandlerTransport, LoginThrottledError } from '../../src';
import type { LoginAttempt, LoginThrottle } from '../../src/server/LoginThrottle';
import { createRedisLoginThrottle } from '../readme/redisLoginThrottle';
import { useCleanups } from '../helpers/overHttp';
import { useRedisServer } from '../helpers/redisServer';
import { pageFetch, startTokenHandler, type TokenHandlerRig } from '../helpers/tokenHandler';

const cleanups = useCleanups();
const redis = useRedisServer(cleanups);

const login = (
  rig: TokenHandlerRig,
  password: string,
  email = 'admin@demo.test',
  headers: Record<string, string> = {},
) => rig.post('login', { email, password }, { cookie: null, headers });

describe('loginThrottle', () => {
  it('refuses a login with 429 and Retry-After, sending nothing upstream', async () => {
    const check = vi.fn<LoginThrottle['check']>(() => ({ retryAfter: 42_300 }));
    const rig = await startTokenHandler(cleanups, { handler: { loginThrottle: { check } } });
    const answer = await login(rig, 'admin-pass');
    expect(answer.status).toBe(429);
    expect(answer.headers.get('retry-after')).toBe('43');
    expect(answer.body.error).toEqual({
      code: 'TOO_MANY_ATTEMPTS',
      message: 'Too many sign-in attempts: try again in 43 s.',
      retryAfter: 43_000,
    });
    expect(answer.setCookie).toEqual([]);
    expect(rig.upstream.stats.loginCalls).toBe(0);
    expect(check).toHaveBeenCalledWith(expect.objectContaining({ email: 'admin@demo.test', address: '127.0.0.1' }));
  });

  it('is told how each login it let through ended', async () => {
    const record = vi.fn<NonNullable<LoginThrottle['record']>>();
    const rig = await startTokenHandler(cleanups, { handler: { loginThrottle: { check: () => undefined, record } } });
    expect((await login(rig, 'wrong')).status).toBe(401);
    expect((await login(rig, 'admin-pass')).status).toBe(200);
    expect(record.mock.calls.map(([attempt, outcome]) => [attempt.email, outcome])).toEqual([
      ['admin@demo.test', 'refused'],
      ['admin@demo.test', 'accepted'],
    ]);
  });

  it('lets the login through when the throttle fails, and reports the failure', async () => {
    const onError = vi.fn();
    const rig = await startTokenHandler(cleanups, {
      handler: { onError, loginThrottle: { check: () => Promise.reject(new Error('Redis is down')) } },
    });
    expect((await login(rig, 'admin-pass')).status).toBe(200);
    expect(onError).toHaveBeenCalledWith(expect.objectContaining({ message: 'Redis is down' }));
  });

  it('reaches the page as a LoginThrottledError that carries the wait, shown as the state error', async () => {
    const rig = await startTokenHandler(cleanups, {
      handler: { loginThrottle: { check: () => ({ retryAfter: 5_000 }) } },
    });
    const auth = createTokenAuth({
      transport: createTokenHandlerTransport(`${rig.origin}/auth`, { fetch: pageFetch(rig.jar, rig.origin) }),
    });
    cleanups.push(() => auth.dispose());
    // The page load's restore: nobody signed in.
    await vi.waitFor(() => expect(auth.getState().status).toBe('unauthenticated'));
    const refused = await auth.login('admin@demo.test', 'admin-pass').catch((error: unknown) => error);
    expect(LoginThrottledError.is(refused)).toBe(true);
    expect(refused).toMatchObject({ retryAfter: 5_000, message: 'Too many sign-in attempts: try again in 5 s.' });
    expect(auth.getState()).toMatchObject({ status: 'unauthenticated', error: refused });
  });
});

describe('the client address upstream', () => {
  /** A rig whose upstream calls are recorded with their X-Forwarded-For. */
  async function recording(trustProxy: boolean) {
    const forwarded: Array<string | null> = [];
    const spy: typeof fetch = (input, init) => {
      forwarded.push(new Headers(init?.headers).get('x-forwarded-for'));
      return fetch(input, init);
    };
    const attempts: LoginAttempt[] = [];
    const rig = await startTokenHandler(cleanups, {
      handler: { trustProxy, fetch: spy, loginThrottle: { check: (attempt) => void attempts.push(attempt) } },
    });
    return { rig, forwarded, attempts };
  }

  it('is the peer on every upstream call, and a browser’s X-Forwarded-For is ignored without trustProxy', async () => {
    const { rig, forwarded, attempts } = await recording(false);
    const signedIn = await login(rig, 'admin-pass', 'admin@demo.test', { 'x-forwarded-for': '6.6.6.6' });
    await rig.post(
      'refresh',
      { accessToken: signedIn.body.accessToken },
      { cookie: signedIn.setCookie[0]!.split(';')[0]!, headers: { 'x-forwarded-for': '6.6.6.6' } },
    );
    await rig.post(
      'logout',
      {},
      { cookie: signedIn.setCookie[0]!.split(';')[0]!, headers: { 'x-forwarded-for': '6.6.6.6' } },
    );
    expect(forwarded).toEqual(['127.0.0.1', '127.0.0.1', '127.0.0.1']);
    expect(attempts[0]!.address).toBe('127.0.0.1');
  });

  it('behind a trusted proxy, is the chain the proxy sent with the peer appended, and the client is the one the proxy vouched for', async () => {
    const { rig, forwarded, attempts } = await recording(true);
    // What the proxy sends: the browser's own claim first, then the address the proxy saw.
    await login(rig, 'admin-pass', 'admin@demo.test', { 'x-forwarded-for': '6.6.6.6, 203.0.113.7' });
    expect(forwarded).toEqual(['6.6.6.6, 203.0.113.7, 127.0.0.1']);
    expect(attempts[0]!.address).toBe('203.0.113.7');
  });
});

describe('the README’s limiter recipe: rate-limiter-flexible on a real redis-server', () => {
  it('after 5 refused logins of an e-mail the next is refused with the wait, even with the right password; other e-mails go on', async () => {
    const client = redis.client();
    await client.flushall();
    const rig = await startTokenHandler(cleanups, { handler: { loginThrottle: createRedisLoginThrottle(client) } });
    for (let i = 0; i < 5; i++) expect((await login(rig, 'wrong')).status).toBe(401);
    expect(rig.upstream.stats.loginCalls).toBe(5);

    const refused = await login(rig, 'admin-pass');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(14 * 60);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(15 * 60);
    expect(rig.upstream.stats.loginCalls).toBe(5);
    // In the browser, the wait comes with the error.
    const auth = createTokenAuth({
      transport: createTokenHandlerTransport(`${rig.origin}/auth`, { fetch: pageFetch(rig.jar, rig.origin) }),
    });
    cleanups.push(() => auth.dispose());
    const error = await auth.login(' Admin@demo.test', 'admin-pass').catch((failure: unknown) => failure);
    expect(LoginThrottledError.is(error)).toBe(true);
    expect((error as LoginThrottledError).retryAfter).toBeGreaterThan(14 * 60_000);

    // Another account from the same address is not locked out by this one's failures.
    expect((await login(rig, 'cashier-pass', 'cashier@demo.test')).status).toBe(200);
  });

  it('counts per address too: 20 refused logins from one address lock out every e-mail from it, and the count is shared by two instances', async () => {
    const client = redis.client();
    await client.flushall();
    const throttle = createRedisLoginThrottle(client);
    const [first, second] = [
      await startTokenHandler(cleanups, { handler: { loginThrottle: throttle, trustProxy: true } }),
      await startTokenHandler(cleanups, {
        handler: { loginThrottle: createRedisLoginThrottle(redis.client()), trustProxy: true },
      }),
    ];
    const from = { 'x-forwarded-for': '198.51.100.9' };
    for (let i = 0; i < 20; i++)
      expect((await login(i % 2 ? first : second, 'wrong', `user${i}@demo.test`, from)).status).toBe(401);
    expect((await login(first, 'admin-pass', 'admin@demo.test', from)).status).toBe(429);
    expect((await login(second, 'admin-pass', 'admin@demo.test', { 'x-forwarded-for': '198.51.100.10' })).status).toBe(
      200,
    );
  });
});
