import { describe, expect, it, vi } from 'vitest';
import { createTokenAuth, createTokenHandlerTransport, type TokenAuth } from '../../src';
import { openCookieTab } from '../helpers/cookieTabs';
import type { TokenPair } from '../../src/core/tokens/TokenPair';
import { createRedisRotationCache } from '../../src/server/createRedisRotationCache';
import { createTokenHandler } from '../../src/server/createTokenHandler';
import { clientFor, ping, startDemoServer, useCleanups } from '../helpers/overHttp';
import { useRedisServer } from '../helpers/redisServer';
import {
  COOKIE,
  type HandlerAnswer,
  openCookie,
  pageFetch,
  parseSetCookie,
  postTo,
  SECRET,
  serveHandler,
  startTokenHandler,
  type TokenHandlerRig,
  until,
} from '../helpers/tokenHandler';

// Found reviewing the token handler against an API that stops accepting access tokens before their `exp` (a
// signing-key rotation, a clock ahead, the demo's "Expire access tokens now"). A page's /refresh names the token its
// operation carried; the handler must never answer with a token the API refused: it rotates when that token is the
// session's newest, and answers the newer pair, without an upstream call, when the page's token is older.

const cleanups = useCleanups();
const redis = useRedisServer(cleanups);
const ADMIN = { email: 'admin@demo.test', password: 'admin-pass' };

async function signedIn(rig: TokenHandlerRig): Promise<string> {
  const login = await rig.post('login', ADMIN);
  expect(login.status).toBe(200);
  return login.body.accessToken;
}

/** The `Cookie` header that sends back what `answer` set. */
const cookieOf = (answer: HandlerAnswer) => `${COOKIE}=${parseSetCookie(answer.setCookie[0]!).value}`;

describe('a /refresh that names a token the API refused', () => {
  it('is answered with the newest pair, not the one a later rotation replaced, when it left with an older cookie', async () => {
    const rig = await startTokenHandler(cleanups);
    const a0 = await signedIn(rig);
    rig.upstream.expireAllAccessTokens();
    const first = await rig.post('refresh', { accessToken: a0 });
    const a1 = first.body.accessToken;
    const stale = rig.jar.header()!;
    // The API refuses a1 too; a tab that holds it has the pair rotated again.
    rig.upstream.expireAllAccessTokens();
    const second = await rig.post('refresh', { accessToken: a1 });
    const a2 = second.body.accessToken;
    expect(new Set([a0, a1, a2]).size).toBe(3);
    expect(rig.upstream.stats.refreshCalls).toBe(2);

    // Requests that left with the cookie of a1 (before the answer that replaced it arrived): a tab whose operation
    // carried a0, a tab whose operation carried a1, and a page load. None is handed a1, the API refused it.
    for (const accessToken of [a0, a1, undefined]) {
      const late = await rig.post('refresh', accessToken ? { accessToken } : {}, { cookie: stale });
      expect(late.status).toBe(200);
      expect(late.body.accessToken).toBe(a2);
      // The browser's cookie catches up with the newest pair.
      expect((await openCookie(late.setCookie[0]!))?.r).toBe(rig.upstream.stats.refreshTokensIssued.at(-1));
    }
    expect(rig.upstream.stats.refreshCalls).toBe(2);
    expect(rig.upstream.stats.reuseDetections).toBe(0);
    // And a server render that comes with that cookie renders with a2.
    expect((await rig.handler.getServerSession({ headers: new Headers({ cookie: stale }) })).accessToken).toBe(a2);
  });

  it('waits for the rotation of a token another tab reported refused, instead of handing that token out', async () => {
    const rig = await startTokenHandler(cleanups);
    const a0 = await signedIn(rig);
    rig.upstream.expireAllAccessTokens();
    const a1 = (await rig.post('refresh', { accessToken: a0 })).body.accessToken;
    const cookie = rig.jar.header()!;
    rig.upstream.expireAllAccessTokens();
    rig.upstream.faults.delayMs['refreshToken'] = 200;

    // Tab 2's operation carried a1: it is the newest pair, so the handler rotates. Tab 1's carried a0, older.
    const tab2 = rig.post('refresh', { accessToken: a1 }, { cookie });
    await until(() => rig.upstream.stats.refreshCalls === 2);
    const [tab1, pageLoad] = await Promise.all([
      rig.post('refresh', { accessToken: a0 }, { cookie }),
      rig.post('refresh', {}, { cookie }),
    ]);
    const a2 = (await tab2).body.accessToken;

    expect(a2).not.toBe(a1);
    expect(tab1.body.accessToken).toBe(a2);
    expect(pageLoad.body.accessToken).toBe(a2);
    expect(rig.upstream.stats.refreshCalls).toBe(2);
    expect(rig.upstream.stats.reuseDetections).toBe(0);
  });

  it('rotates only when the token named is the session’s newest: an older, unknown or missing one costs no upstream call', async () => {
    const rig = await startTokenHandler(cleanups);
    const a0 = await signedIn(rig);
    const a1 = (await rig.post('refresh', { accessToken: a0 })).body.accessToken;
    expect(rig.upstream.stats.refreshCalls).toBe(1);

    // A hostile client holding the cookie claims tokens were refused: none of these is the session's newest.
    for (const accessToken of [a0, 'forged', `${a1}x`, 42, null, undefined]) {
      const answer = await rig.post('refresh', { accessToken });
      expect(answer.status).toBe(200);
      expect(answer.body.accessToken).toBe(a1);
    }
    expect(rig.upstream.stats.refreshCalls).toBe(1);

    // Claiming the newest one rotates, once however many claim it at the same time.
    const cookie = rig.jar.header()!;
    const claims = await Promise.all(
      Array.from({ length: 20 }, () => rig.post('refresh', { accessToken: a1 }, { cookie })),
    );
    expect(new Set(claims.map((claim) => claim.body.accessToken)).size).toBe(1);
    expect(claims[0]!.body.accessToken).not.toBe(a1);
    expect(rig.upstream.stats.refreshCalls).toBe(2);
    expect(rig.upstream.stats.reuseDetections).toBe(0);
  });

  it('across two instances sharing Redis: the other instance waits for the rotation, and spends no token twice', async () => {
    const upstream = await startDemoServer(cleanups);
    const origins: string[] = [];
    for (let i = 0; i < 2; i++) {
      const handler = createTokenHandler({
        uri: upstream.url,
        secret: SECRET,
        cache: createRedisRotationCache(redis.client()),
      });
      origins.push(await serveHandler(cleanups, handler));
    }
    const [one, two] = origins as [string, string];
    const login = await postTo(one, '/auth/login', ADMIN);
    const a0 = login.body.accessToken;
    upstream.expireAllAccessTokens();
    const first = await postTo(one, '/auth/refresh', { accessToken: a0 }, { cookie: cookieOf(login) });
    const a1 = first.body.accessToken;
    const cookie = cookieOf(first);
    upstream.expireAllAccessTokens();
    upstream.faults.delayMs['refreshToken'] = 200;

    const reported = postTo(one, '/auth/refresh', { accessToken: a1 }, { cookie });
    await until(() => upstream.stats.refreshCalls === 2);
    const [older, same] = await Promise.all([
      postTo(two, '/auth/refresh', { accessToken: a0 }, { cookie }),
      postTo(two, '/auth/refresh', { accessToken: a1 }, { cookie }),
    ]);
    const a2 = (await reported).body.accessToken;

    expect(a2).not.toBe(a1);
    expect(older.body.accessToken).toBe(a2);
    expect(same.body.accessToken).toBe(a2);
    expect(upstream.stats.refreshCalls).toBe(2);
    expect(upstream.stats.reuseDetections).toBe(0);
    // Later, with the stale cookie, still the newest, from either instance.
    for (const origin of origins)
      expect((await postTo(origin, '/auth/refresh', { accessToken: a0 }, { cookie })).body.accessToken).toBe(a2);
    expect(upstream.stats.refreshCalls).toBe(2);
  });
});

/** A tab of one browser: a session in token-handler mode on the rig's cookies, with a client of the API. */
function openTab(rig: TokenHandlerRig) {
  const auth = createTokenAuth({
    transport: createTokenHandlerTransport(`${rig.origin}/auth`, { fetch: pageFetch(rig.jar, rig.origin) }),
    refreshOnResume: false,
    // The floor spaces a tab's refreshes 5 s apart; the kills of this test come faster than a person clicks.
    refreshFloor: 50,
  });
  cleanups.push(() => auth.dispose());
  return { auth, client: clientFor(auth.link, rig.upstream.url) };
}

const settled = (auth: TokenAuth) =>
  vi.waitFor(() => expect(auth.getState().status).toBe('authenticated'), { timeout: 3000, interval: 5 });

/** Sends `count` operations at once from `tab`: how many succeeded. */
async function burst(tab: ReturnType<typeof openTab>, count = 20): Promise<number> {
  const results = await Promise.allSettled(Array.from({ length: count }, (_, n) => ping(tab.client, n)));
  return results.filter(
    (result) =>
      result.status === 'fulfilled' && (result.value.data as { ping?: unknown } | undefined)?.ping !== undefined,
  ).length;
}

describe('two tabs of one browser, the API killing every access token early', () => {
  it('each tab fires 20 operations after each kill: 20 of 20 in both, one rotation per kill, three rounds', async () => {
    const rig = await startTokenHandler(cleanups);
    const first = openTab(rig);
    await first.auth.login(ADMIN.email, ADMIN.password);
    const second = openTab(rig);
    await settled(second.auth);

    const rounds: Array<{ tab: string; succeeded: number; rotations: number }> = [];
    for (let round = 0; round < 3; round++) {
      // A kill, then a burst in one tab; another kill, then a burst in the other, which did not take part in the
      // last rotation.
      for (const [name, tab] of [
        ['first', first],
        ['second', second],
      ] as const) {
        const before = rig.upstream.stats.refreshCalls;
        rig.upstream.expireAllAccessTokens();
        const succeeded = await burst(tab);
        rounds.push({ tab: name, succeeded, rotations: rig.upstream.stats.refreshCalls - before });
      }
    }

    expect(rounds).toEqual(
      Array.from({ length: 6 }, (_, i) => ({ tab: i % 2 ? 'second' : 'first', succeeded: 20, rotations: 1 })),
    );
    expect(rig.upstream.stats.reuseDetections).toBe(0);
    expect(await first.auth.getAccessToken()).toBe(await second.auth.getAccessToken());
  });
});

describe('the tabs of a token-handler page', () => {
  /** A tab's store, as the token handler's page opens it. */
  const tabStore = (name: string) => openCookieTab(cleanups, name, { lock: false });
  const pair = (token: string): TokenPair => ({ accessToken: token, refreshToken: token });

  it('follow the token a rotation in another tab brought, unless signed out (a logout that raced the rotation)', async () => {
    const name = `rotations-${Math.random()}`;
    const [rotating, holding, loading] = [tabStore(name), tabStore(name), tabStore(name)];
    // Two tabs restored the session; the third has not yet.
    await rotating.seam.rotate(
      pair('cookie'),
      async () => pair('a1'),
      () => true,
    );
    await holding.seam.rotate(
      pair('cookie'),
      async () => pair('a1'),
      () => true,
    );
    const settle = () => new Promise((resolve) => setTimeout(resolve, 50));
    await settle();
    for (const tab of [rotating, holding, loading]) tab.adopted.length = 0;

    await rotating.seam.rotate(
      pair('a1'),
      async () => pair('a2'),
      () => true,
    );
    await vi.waitFor(() => expect(holding.adopted).toEqual([pair('a2')]));
    // A rotation no longer wanted (its tab followed a newer pair meanwhile) tells nobody.
    await rotating.seam.rotate(
      pair('a2'),
      async () => pair('a3'),
      () => false,
    );
    // A logout in one tab, and a rotation that another tab finishes before it hears of it: the tab that logged
    // out does not sign in again with that rotation's token, nor does a tab that never held the session.
    await holding.seam.save(null);
    await rotating.seam.rotate(
      pair('a2'),
      async () => pair('a4'),
      () => true,
    );
    await settle();

    expect(holding.adopted).toEqual([pair('a2')]);
    expect(loading.adopted).toEqual([null]);
    expect(rotating.adopted).toEqual([null]);
  });

  it("tell when a rotation's answer came, for the others to time its token as it does, and still follow a tab of an earlier version", async () => {
    const name = `rotations-${Math.random()}`;
    const [rotating, holding] = [tabStore(name), tabStore(name)];
    await rotating.seam.rotate(
      pair('cookie'),
      async () => pair('a1'),
      () => true,
    );
    await holding.seam.rotate(
      pair('cookie'),
      async () => pair('a1'),
      () => true,
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    holding.adopted.length = 0;

    await rotating.seam.rotate(
      pair('a1'),
      async () => ({ ...pair('a2'), receivedAt: 1_234 }),
      () => true,
    );
    await vi.waitFor(() => expect(holding.adopted).toStrictEqual([{ ...pair('a2'), receivedAt: 1_234 }]));
    // A tab of an earlier version tells the token alone, on the channel without the time.
    const earlier = new BroadcastChannel(`${name} rotations`);
    earlier.postMessage('a3');
    earlier.close();
    await vi.waitFor(() => expect(holding.adopted.at(-1)).toEqual(pair('a3')));
  });
});
