import { describe, expect, it, vi } from 'vitest';
import { createTokenAuth, createTokenHandlerTransport, type TokenAuth, type TokenAuthTransport } from '../../src';
import {
  createTokenHandler,
  type TokenHandler,
  type TokenHandlerOptions,
  type UpstreamContext,
} from '../../src/server';
import { createTestClock, type TestClock } from '../../src/testing';
import { useCleanups } from '../helpers/overHttp';
import { ADA, type RestAuthServer, startRestAuthServer } from '../helpers/restAuthServer';
import {
  type CookieJar,
  createCookieJar,
  openCookie,
  pageFetch,
  postTo,
  SECRET,
  serveHandler,
  until,
} from '../helpers/tokenHandler';
import { createRestTokenHandler, restTransport } from '../readme/restUpstream';

// The token handler in front of a REST auth server (test/helpers/restAuthServer.ts: jose's JWTs, 15-minute access
// tokens), through the transport docs/token-handler.md shows, over HTTP on 127.0.0.1. Pages are played in Node:
// sessions through createTokenHandlerTransport on one cookie jar, and a reload is a new session on the same jar. The
// server, the handler and the pages share one test clock, moved only while no page is open.

const cleanups = useCleanups();
const MINUTE = 60_000;

interface Rig {
  readonly rest: RestAuthServer;
  readonly clock: TestClock;
  readonly origin: string;
  readonly jar: CookieJar;
  /** The routes of the handler the pages called, in order (`login`, `refresh` …). */
  readonly routes: string[];
  /** What the pages' requests to the handler were answered, in order. */
  readonly answers: Array<{ status: number; body: any }>;
  /** A page load: a new session on the rig's cookie jar. */
  open(): TokenAuth;
}

/**
 * A REST server, the handler `handler` makes in front of it (docs' createRestTokenHandler by default) served over
 * HTTP, and pages of one browser.
 */
async function start({
  rotate = true,
  handler = createRestTokenHandler,
}: {
  rotate?: boolean;
  handler?: (url: string, options: TokenHandlerOptions) => TokenHandler;
} = {}): Promise<Rig> {
  const clock = createTestClock();
  const rest = await startRestAuthServer(cleanups, { now: clock.now, rotate });
  const origin = await serveHandler(cleanups, handler(rest.url, { secret: SECRET, now: clock.now }));
  const jar = createCookieJar();
  const routes: string[] = [];
  const answers: Rig['answers'] = [];
  const recorded: typeof fetch = (input, init) => (routes.push(String(input).split('/').pop()!), fetch(input, init));
  const open = () => {
    const auth = createTokenAuth({
      transport: createTokenHandlerTransport(`${origin}/auth`, { fetch: pageFetch(jar, origin, recorded, answers) }),
      clock,
      refreshOnResume: false,
    });
    cleanups.push(() => auth.dispose());
    return auth;
  };
  return { rest, clock, origin, jar, routes, answers, open };
}

/** Resolves once the page's session is no longer loading. */
const settled = (auth: TokenAuth) =>
  vi.waitFor(() => expect(auth.getState().status).not.toBe('loading'), { timeout: 3000, interval: 5 });

/** Signs ADA in on a page, and closes it. */
async function signIn(rig: Rig): Promise<void> {
  const page = rig.open();
  await settled(page);
  await page.login(ADA.email, ADA.password);
  page.dispose();
}

/** A reload once the access token has less than `minTokenLife` (3 minutes) to live: the handler rotates the pair. */
async function reloadLater(rig: Rig, minutes = 13): Promise<TokenAuth> {
  await rig.clock.advance(minutes * MINUTE);
  const page = rig.open();
  await settled(page);
  return page;
}

const refreshed = (rig: Rig) => rig.rest.calls.filter((call) => call.route === 'refresh');

describe('the token handler in front of a REST auth server, through a transport of its own', () => {
  it('signs in, and a reload restores the session with one /refresh and no upstream call while the token is fresh', async () => {
    const rig = await start();
    await signIn(rig);
    const page = rig.open();
    await settled(page);
    expect(page.getState()).toMatchObject({ status: 'authenticated', user: { id: ADA.id, email: ADA.email } });
    expect(rig.routes).toEqual(['refresh', 'login', 'refresh']);
    expect({ login: rig.rest.count('login'), refresh: rig.rest.count('refresh') }).toEqual({ login: 1, refresh: 0 });
    expect((await openCookie(rig.jar.get()!))?.r).toBe(rig.rest.issued[0]);
  });

  it('rotates the pair upstream on a reload near the access token’s end: the new refresh token in the cookie, none in the page', async () => {
    const rig = await start();
    await signIn(rig);
    const page = await reloadLater(rig);
    expect(page.getState().status).toBe('authenticated');
    expect(refreshed(rig).map((call) => call.refreshToken)).toEqual([rig.rest.issued[0]]);
    expect((await openCookie(rig.jar.get()!))?.r).toBe(rig.rest.issued[1]);
    for (const token of rig.rest.issued) expect(JSON.stringify(rig.answers)).not.toContain(token);
  });

  it('rotates upstream once for five page loads at once, which all get the same access token', async () => {
    const rig = await start();
    await signIn(rig);
    await rig.clock.advance(13 * MINUTE);
    const release = rig.rest.holdRefreshes();
    const pages = Array.from({ length: 5 }, () => rig.open());
    // The REST server answers once every page's /refresh has left, so that they meet at the handler.
    await until(() => rig.routes.filter((route) => route === 'refresh').length === 1 + 5);
    release();
    await Promise.all(pages.map(settled));
    expect(pages.map((page) => page.getState().status)).toEqual(Array(5).fill('authenticated'));
    expect(new Set(await Promise.all(pages.map((page) => page.getAccessToken())))).toHaveProperty('size', 1);
    expect(rig.rest.count('refresh')).toBe(1);
  });

  it('logout revokes the session upstream: the REST server refuses its refresh token after', async () => {
    const rig = await start();
    await signIn(rig);
    const page = rig.open();
    await settled(page);
    await page.logout();
    expect(rig.rest.calls.filter((call) => call.route === 'logout')).toMatchObject([
      { refreshToken: rig.rest.issued[0] },
    ]);
    expect(rig.jar.get()).toBeUndefined();
    const refused = await restTransport(rig.rest.url)
      .refresh(rig.rest.issued[0]!, AbortSignal.timeout(5000))
      .catch((error: unknown) => error);
    expect(refused).toMatchObject({ name: 'AuthRejectedError', message: 'Invalid refresh token' });
  });

  it('ends the session when the REST server refuses the refresh token: 401 SESSION_REVOKED, the cookie cleared', async () => {
    const rig = await start();
    await signIn(rig);
    rig.rest.revokeAll();
    const page = await reloadLater(rig);
    expect(page.getState()).toMatchObject({ status: 'unauthenticated', ended: { reason: 'rejected' } });
    expect(rig.answers.at(-1)).toMatchObject({ status: 401, body: { error: { code: 'SESSION_REVOKED' } } });
    expect(rig.jar.get()).toBeUndefined();
  });

  it('keeps the cookie through a REST server outage (503), and renews it with the same refresh token once it is back', async () => {
    const rig = await start();
    await signIn(rig);
    const cookie = rig.jar.get();
    rig.rest.down = true;
    await rig.clock.advance(13 * MINUTE);
    const during = rig.open();
    await until(() => rig.answers.length === 3);
    expect(rig.answers.at(-1)).toMatchObject({ status: 503, body: { error: { code: 'UPSTREAM_UNAVAILABLE' } } });
    expect(during.getState()).toMatchObject({ status: 'loading', retry: expect.anything() });
    expect(rig.jar.get()).toBe(cookie);
    during.dispose();

    rig.rest.down = false;
    const after = rig.open();
    await settled(after);
    expect(after.getState().status).toBe('authenticated');
    expect(refreshed(rig).map((call) => call.refreshToken)).toEqual([rig.rest.issued[0], rig.rest.issued[0]]);
  });

  it('runs the transport’s sign-in doors, and refuses a name its signIns lack with 404, calling nobody', async () => {
    const rig = await start();
    const page = rig.open();
    await settled(page);
    const { user } = await page.signIn('register', { email: 'grace@example.com', password: 'grace-pass' });
    expect(user).toMatchObject({ email: 'grace@example.com' });
    expect(page.getState().status).toBe('authenticated');
    const unknown = await page.signIn('magicLink', { email: 'grace@example.com' }).catch((error: unknown) => error);
    expect(unknown).toMatchObject({ name: 'AuthRequestError', status: 404 });
    expect((unknown as Error).message).toContain('No sign-in door named "magicLink" (the doors there are: register)');
    expect(rig.rest.calls.map((call) => call.route)).toEqual(['register']);
  });

  it('refuses a login whose answer carries no refresh token with 503 NO_REFRESH_TOKEN, naming the cause, and sets no cookie', async () => {
    const onError = vi.fn();
    // A service that keeps the refresh token to itself (its own cookie, say): its login answers only the access token.
    const rig = await start({
      handler: (url, options) => {
        const rest = restTransport(url);
        const login: TokenAuthTransport['login'] = async (...args) => ({
          ...(await rest.login(...args)),
          refreshToken: undefined,
        });
        return createTokenHandler({ ...options, onError, upstream: { ...rest, login } });
      },
    });
    const page = rig.open();
    await settled(page);
    const error = await page.login(ADA.email, ADA.password).catch((failure: unknown) => failure);
    const cause =
      'No refresh token in the login answer, only an access token: the token handler keeps the refresh token in its cookie';
    expect(error).toMatchObject({ name: 'AuthRequestError', status: 503 });
    expect((error as Error).message).toContain(`(NO_REFRESH_TOKEN): ${cause}`);
    expect(onError).toHaveBeenCalledWith(expect.objectContaining({ message: expect.stringContaining(cause) }));
    expect(rig.jar.get()).toBeUndefined();
    expect(page.getState().status).toBe('unauthenticated');
  });
});

describe('the upstream option', () => {
  it('calls a transport given as it is, with no address of the client', async () => {
    const rig = await start({
      handler: (url, options) => createTokenHandler({ ...options, upstream: restTransport(url) }),
    });
    await signIn(rig);
    expect((await reloadLater(rig)).getState().status).toBe('authenticated');
    expect(rig.rest.calls.map(({ route, forwardedFor }) => [route, forwardedFor])).toEqual([
      ['login', undefined],
      ['refresh', undefined],
    ]);
  });

  it('calls a function of the request’s context for each upstream call, with the client’s address as forwardedFor', async () => {
    const contexts: UpstreamContext[] = [];
    const rig = await start({
      handler: (url, options) =>
        createTokenHandler({
          ...options,
          trustProxy: true,
          upstream: (context) => (contexts.push(context), restTransport(url, context.forwardedFor)),
        }),
    });
    const headers = { 'x-forwarded-for': '203.0.113.7' };
    const jar = createCookieJar();
    await postTo(rig.origin, '/auth/login', { email: ADA.email, password: ADA.password }, { jar, headers });
    await postTo(rig.origin, '/auth/logout', {}, { jar, headers });
    expect(contexts.map((context) => context.forwardedFor)).toEqual([
      '203.0.113.7, 127.0.0.1',
      '203.0.113.7, 127.0.0.1',
    ]);
    expect(contexts[0]!.request.headers.get('x-token-handler')).toBe('1');
    expect(rig.rest.calls.map(({ route, forwardedFor }) => [route, forwardedFor])).toEqual([
      ['login', '203.0.113.7, 127.0.0.1'],
      ['logout', '203.0.113.7, 127.0.0.1'],
    ]);
  });

  it('answers 500 MISCONFIGURED naming the GraphQL options set beside it, and how to fix it, logged once', async () => {
    const onError = vi.fn();
    const handler = createTokenHandler({
      secret: SECRET,
      uri: 'http://127.0.0.1:1/graphql',
      headers: { 'x-api-key': 'k' },
      signIns: { register: 'mutation { register { accessToken refreshToken } }' },
      upstream: restTransport('http://127.0.0.1:1'),
      onError,
    });
    for (let i = 0; i < 2; i++) {
      const answer = await handler(new Request('http://127.0.0.1/auth/login', { method: 'POST', body: '{}' }));
      expect(answer.status).toBe(500);
      expect((await answer.json()).error).toEqual({
        code: 'MISCONFIGURED',
        message:
          "The token handler calls its `upstream` transport, so `uri`, `headers`, `signIns` beside it would go unused: build them into that transport (its `signIn` and `signIns` are the doors a page's signIn runs), or remove `upstream`.",
      });
    }
    expect(onError).toHaveBeenCalledTimes(1);
  });

  it('needs no uri beside it, and names it as the other way when neither is set', async () => {
    const withUpstream = createTokenHandler({ secret: SECRET, upstream: restTransport('http://127.0.0.1:1') });
    await expect(withUpstream.getServerSession({ headers: new Headers() })).resolves.toMatchObject({
      accessToken: null,
    });
    const env: Record<string, string | undefined> = {};
    const neither = createTokenHandler({ uri: env['GRAPHQL_URL']!, secret: SECRET });
    await expect(neither.getServerSession({ headers: new Headers() })).rejects.toThrow(
      'The token handler has no `uri`: set the upstream GraphQL URL (or `upstream`, a transport of your own) in createTokenHandler.',
    );
  });
});

describe('in front of a REST server that does not rotate refresh tokens (RFC 6749 §6)', () => {
  it('stays signed in across two rotations, the cookie keeping its refresh token with each new access token', async () => {
    const rig = await start({ rotate: false });
    await signIn(rig);
    const page = await reloadLater(rig);
    const first = await page.getAccessToken();
    const cookie = await openCookie(rig.jar.get()!);
    expect(cookie).toMatchObject({ r: rig.rest.issued[0], a: first });

    // A minute on, the API refuses that token: the page asks for another, and the handler rotates again.
    await rig.clock.advance(MINUTE);
    await page.refresh();
    const second = await page.getAccessToken();
    expect(second).not.toBe(first);
    expect(await openCookie(rig.jar.get()!)).toMatchObject({ r: rig.rest.issued[0], a: second });
    expect(page.getState().status).toBe('authenticated');
    expect(refreshed(rig).map((call) => call.refreshToken)).toEqual([rig.rest.issued[0], rig.rest.issued[0]]);
    expect(rig.rest.issued).toHaveLength(1);
  });
});
