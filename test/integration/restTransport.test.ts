import { describe, expect, it, vi } from 'vitest';
import { AuthRequestError, SessionEndedError, type TokenAuthTransport } from '../../src';
import { createTestClock } from '../../src/testing';
import { clientFor, ping, useCleanups } from '../helpers/overHttp';
import {
  browserFetch,
  openRestSession,
  REFRESH_COOKIE,
  type RestServer,
  type RestServerOptions,
  startBodyServer,
  startCookieServer,
  startHeaderServer,
} from '../helpers/restServers';
import { type CookieJar, createCookieJar } from '../helpers/tokenHandler';
import { bodyTransport } from '../readme/rest/bodyTransport';
import { cookieTransport } from '../readme/rest/cookieTransport';
import { headerTransport } from '../readme/rest/headerTransport';

const cleanups = useCleanups();
const MINUTE = 60_000;
const ADA = { email: 'ada@example.test', password: 'lovelace' };

interface Shape {
  readonly name: string;
  readonly start: (
    cleanups: Array<() => unknown>,
    options: RestServerOptions & { alsoInBody?: boolean },
  ) => Promise<RestServer>;
  readonly transport: (api: string) => TokenAuthTransport;
  /** The server's words for a refused refresh token. */
  readonly refusal: string;
  /** What the session reads of Ada: her access token's claims, and her email from the login answer. */
  readonly roles: readonly string[];
}

const SHAPES: readonly Shape[] = [
  {
    name: 'the refresh token in the JSON body, answers in { data }, refusals as 500 { error }',
    start: startBodyServer,
    transport: bodyTransport,
    refusal: 'Invalid refresh token',
    roles: ['admin', 'editor'],
  },
  {
    name: 'the refresh token in Authorization: Bearer, rotating, refusals as 200 { ok: false, message }',
    start: startHeaderServer,
    transport: headerTransport,
    refusal: 'Refresh token revoked',
    roles: ['admin'],
  },
  {
    name: "the refresh token in the server's HttpOnly cookie, 400 without it, 401 refused",
    start: startCookieServer,
    transport: cookieTransport,
    refusal: 'Session expired or revoked',
    roles: ['admin', 'editor'],
  },
];

/**
 * A browser on a test clock (the contract's 15-minute tokens), its `fetch` keeping the cookies of `jar`, in front of
 * the server of `shape`. `open()` is a page load: a new session on the same browser.
 */
async function browserOn(
  shape: Shape,
  server: Partial<RestServerOptions> & { alsoInBody?: boolean } = {},
  jar: CookieJar = createCookieJar(),
) {
  const clock = createTestClock();
  const read: string[] = [];
  vi.stubGlobal('fetch', browserFetch({ jar, clock, read }));
  cleanups.push(() => vi.unstubAllGlobals());
  const rest = await shape.start(cleanups, { clock, ...server });
  const open = () => {
    const page = openRestSession(cleanups, shape.transport(rest.url), clock);
    return { ...page, client: clientFor(page.auth.link, `${rest.url}/graphql`) };
  };
  return { clock, jar, read, rest, open };
}

const settled = (auth: { getState(): { status: string } }) =>
  vi.waitFor(() => expect(auth.getState().status).not.toBe('loading'), { timeout: 3000, interval: 5 });

/** {@link browserOn}, and a page signed in as Ada. */
async function signedIn(shape: Shape, server: Parameters<typeof browserOn>[1] = {}) {
  const browser = await browserOn(shape, server);
  const page = browser.open();
  await settled(page.auth);
  await page.auth.login(ADA.email, ADA.password);
  return { ...browser, page };
}

describe.each(SHAPES)('createRestTransport over HTTP: $name', (shape) => {
  it('signs in, and operations carry the access token; the user is read from its userId and roles claims', async () => {
    const { open, rest } = await browserOn(shape);
    const page = open();
    await settled(page.auth);
    const { user } = await page.auth.login(ADA.email, ADA.password);
    expect(user).toMatchObject({ id: '7', email: ADA.email, role: 'admin', roles: shape.roles });
    await expect(ping(page.client, 3)).resolves.toMatchObject({ data: { ping: 3 } });
    expect(rest.stats).toMatchObject({ logins: 1, operations: 1 });
  });

  it('refuses a wrong password in the server words, and holds nothing', async () => {
    const { open } = await browserOn(shape);
    const page = open();
    await settled(page.auth);
    const failure = await page.auth.login(ADA.email, 'wrong').catch((error: unknown) => error);
    expect(failure).toMatchObject({ name: 'AuthRejectedError', operation: 'login' });
    expect((failure as Error).message).toMatch(
      /^(Invalid email or password|Wrong username or password|Invalid credentials)$/,
    );
    expect(page.auth.getState().status).toBe('unauthenticated');
  });

  it('renews the 15-minute access token before it expires, and keeps renewing it for an hour', async () => {
    const { page, clock, rest } = await signedIn(shape);
    const first = await page.auth.getAccessToken();
    // A cookie session asked the server at its page load already.
    const before = rest.stats.refreshes;
    await clock.advance(60 * MINUTE);
    const rotated = page.refreshes.filter((event) => event.outcome === 'rotated');
    expect(rotated).toHaveLength(rest.stats.refreshes - before);
    expect(rotated.length).toBeGreaterThanOrEqual(4);
    expect(await page.auth.getAccessToken()).not.toBe(first);
    await expect(ping(page.client, 1)).resolves.toMatchObject({ data: { ping: 1 } });
    expect(page.ended).toEqual([]);
  });

  it('a burst of 20 operations on an expired access token makes one refresh, and replays each once', async () => {
    const { page, rest } = await signedIn(shape);
    rest.service.expireAccessTokens();
    const before = rest.stats.refreshes;
    const results = await Promise.all(Array.from({ length: 20 }, (_, n) => ping(page.client, n)));
    expect(results.map((result) => result.data)).toEqual(Array.from({ length: 20 }, (_, n) => ({ ping: n })));
    expect(rest.stats.refreshes - before).toBe(1);
    expect(rest.stats).toMatchObject({ expired: 20, operations: 20 });
  });

  it('a revoked session is refused once: it ends as rejected in the server words, and no refresh is retried', async () => {
    const { page, clock, rest } = await signedIn(shape);
    rest.service.revokeAll();
    const before = rest.stats.refreshes;
    const failure = await ping(page.client, 1).catch((error: unknown) => error);
    expect(SessionEndedError.is(failure) && failure.reason).toBe('rejected');
    expect(page.ended).toEqual([
      expect.objectContaining({ reason: 'rejected', rejection: 'revoked', message: shape.refusal }),
    ]);
    expect(page.auth.getState()).toMatchObject({ status: 'unauthenticated', ended: { reason: 'rejected' } });
    await clock.advance(60 * MINUTE);
    await expect(page.auth.refresh()).rejects.toSatisfy((error) => SessionEndedError.is(error));
    expect(rest.stats.refreshes - before).toBe(1);
    expect(page.ended).toHaveLength(1);
  });

  it.each([
    [
      'the server is down',
      'down' as const,
      /refresh failed on the network: http:\/\/127\.0\.0\.1:\d+\/\S+ cannot be reached/,
    ],
    ['the server answers 503 without a refusal', 503 as const, /^refresh failed with HTTP 503\.$/],
  ])(
    'an outage (%s) keeps the session, retries, and renews once the server is back',
    async (_name, outage, message) => {
      const { page, clock, rest } = await signedIn(shape);
      rest.service.outage = outage;
      const sent = rest.stats.refreshes;
      const failure = await page.auth.refresh().catch((error: unknown) => error);
      expect(AuthRequestError.is(failure) && failure.message).toMatch(message);
      expect(page.auth.getState()).toMatchObject({ status: 'authenticated', retry: expect.anything() });
      await clock.advance(MINUTE);
      expect(rest.stats.refreshes - sent).toBeGreaterThan(1);
      rest.service.outage = undefined;
      const before = rest.stats.refreshes;
      await clock.advance(MINUTE);
      expect(rest.stats.refreshes).toBeGreaterThan(before);
      expect(page.auth.getState().status).toBe('authenticated');
      expect(page.auth.getState()).not.toHaveProperty('retry');
      await expect(ping(page.client, 1)).resolves.toMatchObject({ data: { ping: 1 } });
      expect(page.ended).toEqual([]);
    },
  );

  it('logout revokes the session on the server, which then refuses its refresh token', async () => {
    const { page, rest } = await signedIn(shape);
    await page.auth.logout();
    expect(rest.stats.logouts).toBe(1);
    expect(page.errors).toEqual([]);
    await expect(rest.service.refresh(rest.service.refreshTokens.at(-1))).rejects.toThrow('Invalid refresh token');
  });
});

const [, , COOKIE_SHAPE] = SHAPES as [Shape, Shape, Shape];

describe("createRestTransport({ refreshTokenIn: 'cookie' }) over HTTP: the page never holds the refresh token", () => {
  it('a first visit, with no cookie, is no-session: loading, then signed out, with no session end', async () => {
    const { open, rest } = await browserOn(COOKIE_SHAPE);
    const page = open();
    expect(page.auth.getState().status).toBe('loading');
    await settled(page.auth);
    expect(page.auth.getState()).toEqual({ status: 'unauthenticated', user: null });
    expect(page.refreshes).toEqual([expect.objectContaining({ outcome: 'no-session' })]);
    expect(page.ended).toEqual([]);
    expect(rest.stats.refreshes).toBe(1);
  });

  it.each([true, false])(
    'a reload restores the session with one refresh against the cookie (rotating: %s)',
    async (rotate) => {
      const { open, rest, jar } = await browserOn(COOKIE_SHAPE, { rotate });
      const first = open();
      await settled(first.auth);
      await first.auth.login(ADA.email, ADA.password);
      const cookie = jar.get(REFRESH_COOKIE);
      first.auth.dispose();

      const reloaded = open();
      expect(reloaded.auth.getState().status).toBe('loading');
      await settled(reloaded.auth);
      expect(reloaded.auth.getState()).toMatchObject({
        status: 'authenticated',
        user: { id: '7', email: ADA.email, roles: ['admin', 'editor'] },
      });
      expect(rest.stats.refreshes).toBe(2);
      await expect(ping(reloaded.client, 5)).resolves.toMatchObject({ data: { ping: 5 } });
      expect(jar.get(REFRESH_COOKIE) === cookie).toBe(!rotate);
    },
  );

  it('a reload whose cookie the server refuses is a first visit too: signed out, no session end', async () => {
    const { open, rest } = await browserOn(COOKIE_SHAPE);
    const first = open();
    await settled(first.auth);
    await first.auth.login(ADA.email, ADA.password);
    first.auth.dispose();
    rest.service.revokeAll();
    const reloaded = open();
    await settled(reloaded.auth);
    expect(reloaded.auth.getState()).toEqual({ status: 'unauthenticated', user: null });
    expect(reloaded.refreshes).toEqual([expect.objectContaining({ outcome: 'no-session' })]);
    expect(reloaded.ended).toEqual([]);
  });

  it('no answer the page reads carries the refresh token, nor does the state: sign-in, rotations, a reload', async () => {
    const { open, clock, read, rest } = await browserOn(COOKIE_SHAPE);
    const first = open();
    await settled(first.auth);
    await first.auth.login(ADA.email, ADA.password);
    await clock.advance(30 * MINUTE);
    first.auth.dispose();
    const reloaded = open();
    await settled(reloaded.auth);
    expect(rest.service.refreshTokens.length).toBeGreaterThanOrEqual(3);
    expect(read.length).toBeGreaterThanOrEqual(4);
    const seen = JSON.stringify([read, reloaded.auth.getState(), await reloaded.auth.getAccessToken()]);
    for (const token of rest.service.refreshTokens) expect(seen).not.toContain(token);
  });

  it("what the transport answers holds no refresh token, even where the server's answers carry one", async () => {
    const { page, clock, read, rest } = await signedIn(COOKIE_SHAPE, { alsoInBody: true });
    await clock.advance(30 * MINUTE);
    const answer = await cookieTransport(rest.url).refresh('cookie', new AbortController().signal);
    expect(answer).toMatchObject({ accessToken: expect.any(String), refreshToken: undefined });
    const seen = JSON.stringify([answer, page.auth.getState(), await page.auth.getAccessToken()]);
    for (const token of rest.service.refreshTokens) expect(seen).not.toContain(token);
    // The server did send them: a transport that passed them on would fail here.
    expect(read.some((text) => rest.service.refreshTokens.some((token) => text.includes(token)))).toBe(true);
  });

  it('a logout clears the cookie, so a reload is signed out', async () => {
    const { open, jar, rest } = await browserOn(COOKIE_SHAPE);
    const first = open();
    await settled(first.auth);
    await first.auth.login(ADA.email, ADA.password);
    expect(rest.service.refreshTokens).toHaveLength(1);
    expect(jar.get(REFRESH_COOKIE)).toBe(rest.service.refreshTokens[0]);
    await first.auth.logout();
    expect(jar.get(REFRESH_COOKIE)).toBeUndefined();
    const reloaded = open();
    await settled(reloaded.auth);
    expect(reloaded.auth.getState().status).toBe('unauthenticated');
  });
});
