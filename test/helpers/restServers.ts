import {
  type Clock,
  createTokenAuth,
  type ReadUser,
  type RefreshEvent,
  type SessionEndEvent,
  type TokenAuthTransport,
} from '../../src';
import {
  cookiesOf,
  createRestAuthService,
  readJson,
  type RestAuthService,
  type RestStats,
  type RestUser,
  type Routes,
  send,
  serveRest,
  type ServerClock,
} from './restAuthService';
import { type CookieJar, createCookieJar } from './tokenHandler';

// Three REST auth servers as the apps that migrate here have them, written with node:http the way Express tutorials
// write their routes: each shape keeps the refresh token somewhere else and refuses in its own way. Each serves a
// GraphQL endpoint at /graphql behind the access token (TOKEN_EXPIRED when it expired), for Apollo operations.

export { REST_USERS } from './restAuthService';

/** A REST server on 127.0.0.1, closed by the test's cleanups. */
export interface RestServer {
  /** `http://127.0.0.1:PORT`. */
  readonly url: string;
  readonly service: RestAuthService;
  readonly stats: RestStats;
}

export interface RestServerOptions {
  /** The clock the server signs and judges tokens by: the session's test clock. */
  readonly clock: ServerClock;
  /** Whether a refresh rotates the refresh token. @defaultValue `true` */
  readonly rotate?: boolean;
  /** The access tokens' life, in seconds. @defaultValue the contract's 15 minutes */
  readonly accessTokenTtl?: number;
  /** The claims of a user's access tokens. @defaultValue the server's own (see each) */
  readonly claims?: (user: RestUser) => Record<string, unknown>;
  /** More routes (a page and its script, for a browser). */
  readonly routes?: Routes;
}

type Cleanups = Array<() => unknown>;

// The network's fetch, taken before a test puts browserFetch in its place.
const networkFetch = globalThis.fetch;

async function start(cleanups: Cleanups, service: RestAuthService, routes: Routes, options: RestServerOptions) {
  const url = await serveRest(cleanups, service, { ...routes, ...options.routes }, options.clock);
  return { url, service, stats: service.stats };
}

/**
 * (a) The refresh token in the JSON body, every answer wrapped in `data`, and the route's errors caught into
 * `500 { error: err.message }`: a refused refresh token is a 500 `{ error: 'Invalid refresh token' }`. Logout
 * answers 204. Access tokens carry `userId`, `email` and `roles[]`.
 */
export async function startBodyServer(cleanups: Cleanups, options: RestServerOptions): Promise<RestServer> {
  const service = createRestAuthService(options.clock, {
    rotate: options.rotate,
    accessTokenTtl: options.accessTokenTtl,
    claims: options.claims,
  });
  return start(
    cleanups,
    service,
    {
      async 'POST /api/auth/login'(req, res) {
        const { email, password } = await readJson(req);
        const session = await service.login(email, password);
        if (!session) return send(res, 401, { error: 'Invalid email or password' });
        send(res, 200, { data: session });
      },
      async 'POST /api/auth/refresh'(req, res) {
        try {
          const { refreshToken } = await readJson(req);
          send(res, 200, { data: await service.refresh(refreshToken as string | undefined) });
        } catch (error) {
          send(res, 500, { error: (error as Error).message });
        }
      },
      async 'POST /api/auth/logout'(req, res) {
        service.logout((await readJson(req))['refreshToken'] as string | undefined);
        send(res, 204);
      },
    },
    options,
  );
}

/**
 * (b) The refresh token in `Authorization: Bearer`, rotating, answers `{ ok, access_token, refresh_token }` and
 * every refusal a `200 { ok: false, message }`; login takes `{ username, password }`; logout is authenticated by
 * the access token and answers a Boolean. Access tokens carry `userId` and `isAdmin`, unless `claims` says
 * otherwise.
 */
export async function startHeaderServer(cleanups: Cleanups, options: RestServerOptions): Promise<RestServer> {
  const service = createRestAuthService(options.clock, {
    rotate: options.rotate,
    accessTokenTtl: options.accessTokenTtl,
    claims: options.claims ?? ((user) => ({ userId: user.id, isAdmin: user.roles.includes('admin') })),
  });
  const bearer = (authorization: string | undefined) => /^Bearer (.+)$/.exec(authorization ?? '')?.[1];
  return start(
    cleanups,
    service,
    {
      async 'POST /auth/signin'(req, res) {
        const { username, password } = await readJson(req);
        const session = await service.login(username, password);
        if (!session) return send(res, 200, { ok: false, message: 'Wrong username or password' });
        const { accessToken, refreshToken, user } = session;
        send(res, 200, { ok: true, access_token: accessToken, refresh_token: refreshToken, user });
      },
      async 'POST /auth/refresh'(req, res) {
        try {
          const pair = await service.refresh(bearer(req.headers.authorization));
          send(res, 200, { ok: true, access_token: pair.accessToken, refresh_token: pair.refreshToken });
        } catch {
          send(res, 200, { ok: false, message: 'Refresh token revoked' });
        }
      },
      async 'POST /auth/logout'(req, res) {
        send(res, 200, await service.logoutByAccessToken(req.headers.authorization));
      },
    },
    options,
  );
}

/** The name of the cookie server's refresh token cookie. */
export const REFRESH_COOKIE = 'refresh_token';

/**
 * (c) The refresh token in the server's own `HttpOnly` cookie, which the page never sees: login answers
 * `{ token, user }` and sets it; refresh reads it (400 without one, 401 for one it refuses, which it clears) and,
 * when rotating, rewrites it; logout clears it. With `alsoInBody`, the answers carry the refresh token too, as some
 * servers' do. Access tokens carry `userId`, `email` and `roles[]`.
 */
export async function startCookieServer(
  cleanups: Cleanups,
  options: RestServerOptions & { alsoInBody?: boolean },
): Promise<RestServer> {
  const service = createRestAuthService(options.clock, {
    rotate: options.rotate,
    accessTokenTtl: options.accessTokenTtl,
    claims: options.claims,
  });
  const cookie = (token: string, maxAge = 30 * 24 * 60 * 60) =>
    `${REFRESH_COOKIE}=${token}; HttpOnly; SameSite=Strict; Path=/auth; Max-Age=${maxAge}`;
  const leak = (refreshToken: string) => (options.alsoInBody ? { refreshToken } : {});
  return start(
    cleanups,
    service,
    {
      async 'POST /auth/login'(req, res) {
        const { email, password } = await readJson(req);
        const session = await service.login(email, password);
        if (!session) return send(res, 401, { message: 'Invalid credentials' });
        const body = { token: session.accessToken, user: session.user, ...leak(session.refreshToken) };
        send(res, 200, body, { 'set-cookie': cookie(session.refreshToken) });
      },
      async 'POST /auth/refresh'(req, res) {
        const token = cookiesOf(req)[REFRESH_COOKIE];
        if (!token) return send(res, 400, { message: 'Refresh token missing' });
        try {
          const pair = await service.refresh(token);
          const headers: Record<string, string> =
            options.rotate === false ? {} : { 'set-cookie': cookie(pair.refreshToken) };
          send(res, 200, { token: pair.accessToken, ...leak(pair.refreshToken) }, headers);
        } catch {
          send(res, 401, { message: 'Session expired or revoked' }, { 'set-cookie': cookie('', 0) });
        }
      },
      async 'POST /auth/logout'(req, res) {
        service.logout(cookiesOf(req)[REFRESH_COOKIE]);
        send(res, 200, { success: true }, { 'set-cookie': cookie('', 0) });
      },
    },
    options,
  );
}

/** What a page of another origin reads of the servers' answers through {@link browserFetch}. */
export interface BrowserFetchOptions {
  /** The browser's cookies. @defaultValue a new jar */
  readonly jar?: CookieJar;
  /** A test clock, whose `advance()` then waits for each request. */
  readonly clock?: ServerClock;
  /** Collects the text of every answer the page could read. */
  readonly read?: string[];
}

/**
 * A browser's `fetch` from a page of another origin: the jar's cookies are sent, and `Set-Cookie` kept, only for a
 * request with `credentials: 'include'`, as a browser does for a cross-origin API.
 */
export function browserFetch({ jar = createCookieJar(), clock, read }: BrowserFetchOptions = {}): typeof fetch {
  return (input, init) => {
    const request = (async () => {
      const withCookies = init?.credentials === 'include';
      const headers = new Headers(init?.headers);
      const cookies = withCookies ? jar.header() : undefined;
      if (cookies) headers.set('cookie', cookies);
      const response = await networkFetch(input, { ...init, headers });
      if (withCookies) jar.store(response.headers.getSetCookie());
      read?.push(await response.clone().text());
      return response;
    })();
    clock?.track?.(request);
    return request;
  };
}

/** How these apps' sessions read their users: `userId`, `email`, and `roles[]` or `isAdmin`. */
export const readRestUser: ReadUser = (claims, answer) => ({
  id: claims['userId'] as number,
  email: (claims['email'] ?? answer?.['email']) as string | undefined,
  role: (claims['roles'] as string[] | undefined) ?? (claims['isAdmin'] ? ['admin'] : ['user']),
});

/**
 * A page's session on `transport`, as these apps make it (`readRestUser`), on `clock`: with what it told, its ends,
 * its refreshes and the failures nobody awaited. Disposed by `cleanups`.
 */
export function openRestSession(cleanups: Cleanups, transport: TokenAuthTransport, clock: Clock) {
  const ended: SessionEndEvent[] = [];
  const refreshes: RefreshEvent[] = [];
  const errors: unknown[] = [];
  const auth = createTokenAuth({
    transport,
    clock,
    readUser: readRestUser,
    refreshOnResume: false,
    onSessionEnd: (event) => ended.push(event),
    onRefresh: (event) => refreshes.push(event),
    onError: (error) => errors.push(error),
  });
  cleanups.push(() => auth.dispose());
  return { auth, ended, refreshes, errors };
}
