import { jwtDecode } from 'jwt-decode';
import { AuthRejectedError, createGraphQLTransport, type GraphQLTransportOptions } from '../index';
import { getOwnOrigins } from './getOwnOrigins';
import { BODY_LIMIT, readBody } from './readBody';
import { processWide } from './processWide';
import { createMemoryRotationCache, type RotationCache } from './RotationCache';
import { createCookieSealer, type Secrets } from './sealCookie';

/** Options of {@link createTokenHandler}. */
export interface TokenHandlerOptions {
  /** The upstream GraphQL service that serves `loginWithEmailPassword`, `refreshToken` and `logout`. */
  uri: string;
  /**
   * The secret the cookie is encrypted with: at least 32 bytes, the same on every instance. To rotate it, pass a
   * list, the newest first: the first seals, every one opens, and a cookie sealed with an older one is sealed
   * again with the first on its next answer. A secret taken off the list signs out the cookies only it sealed.
   * @example
   * ```ts
   * createTokenHandler({ uri, secret: [process.env.TOKEN_HANDLER_SECRET!, process.env.TOKEN_HANDLER_SECRET_OLD!] });
   * ```
   */
  secret: Secrets;
  /** Where the routes live: `{basePath}/login`, `/refresh` and `/logout`. @defaultValue `'/auth'` */
  basePath?: string;
  /**
   * Origins, besides the handler's own, whose pages may call the routes (`https://app.example.com`). Requests
   * from any other origin are refused with 403, and so are requests without an `Origin` header.
   */
  allowedOrigins?: readonly string[];
  /**
   * The handler's own origin(s), where the app is served (`https://app.example.com`). Set it when the host a
   * request arrives with is not the one the browser used and no trusted proxy says so.
   * @defaultValue taken from each request: its URL, its `Host` header, and with `trustProxy` the
   * `X-Forwarded-Host` / `X-Forwarded-Proto` headers
   */
  origin?: string | readonly string[];
  /**
   * Whether a proxy in front of the handler sets `X-Forwarded-Host`, `X-Forwarded-Proto` (overwriting what the
   * browser sent): then they name the handler's own origin too.
   * @defaultValue `false`
   */
  trustProxy?: boolean;
  /** The cookie that holds the refresh token. */
  cookie?: TokenHandlerCookieOptions;
  /**
   * Where concurrent rotations meet.
   * @defaultValue one memory cache for every handler of this process (`createMemoryRotationCache()`), so that a
   * Next.js proxy and route handlers, loaded as separate modules, share it
   */
  cache?: RotationCache;
  /**
   * How long, in ms, requests that present a refresh token already renewed receive the renewal's answer (the
   * same access token and cookie) instead of a refusal: tabs and server renders that raced, and retries after
   * a lost answer.
   * @defaultValue `30_000`
   */
  graceTime?: number;
  /**
   * An access token held in the cookie is handed out (on page load, to a server render, to a tab whose token
   * another tab renewed) only while it has this long to live, in ms, or half its lifetime when that is
   * shorter; otherwise the pair is renewed.
   * @defaultValue `180_000`
   */
  minTokenLife?: number;
  /** How long an upstream call may take, in ms. @defaultValue `10_000` */
  timeout?: number;
  /** The `fetch` of upstream calls. @defaultValue `globalThis.fetch` */
  fetch?: typeof fetch;
  /** Extra headers of upstream calls. */
  headers?: Record<string, string>;
  /** Documents for an upstream whose mutations have other names: see `createGraphQLTransport`. */
  documents?: GraphQLTransportOptions['documents'];
  /** Failures nobody awaits (a revocation that did not reach the upstream, a cache that failed). Never carries a token. */
  onError?: (error: Error) => void;
  /** The clock, in ms. @defaultValue `Date.now` */
  now?: () => number;
}

/** The cookie of {@link TokenHandlerOptions.cookie}. */
export interface TokenHandlerCookieOptions {
  /**
   * @defaultValue `'__Host-token-pair'`; `'token-pair'` when `secure` is `false` (the prefix demands `Secure`)
   */
  name?: string;
  /**
   * Browsers treat `http://localhost` and `http://127.0.0.1` as secure, so this stays `true` in development.
   * @defaultValue `true`
   */
  secure?: boolean;
  /** @defaultValue `'Strict'` */
  sameSite?: 'Strict' | 'Lax';
  /** How long the session lasts without a refresh, in seconds: the refresh token's life. @defaultValue 30 days */
  maxAge?: number;
}

/** The user, as the login answer named it. */
export interface TokenHandlerUser {
  readonly id: string;
  readonly email?: string;
  readonly role?: string;
}

/** What {@link TokenHandler.getServerSession} yields for one incoming request. */
export interface ServerSession {
  /** The access token to render with; `null` when nobody is signed in (or the upstream could not be reached). */
  readonly accessToken: string | null;
  /** The user the login answer named, when signed in. */
  readonly user: TokenHandlerUser | null;
  /** `Set-Cookie` values to send back with the page: a renewed cookie, or one that clears a dead session. */
  readonly setCookie: readonly string[];
  /** Why there is no token although the request carried a session: the upstream could not be reached. */
  readonly error?: TokenHandlerError;
}

/**
 * The `error.code` of a refusal, with its HTTP status:
 * - 401 `INVALID_CREDENTIALS` (or the code the upstream gave): wrong e-mail or password;
 * - 200 `NO_SESSION` (from `/refresh`, with `accessToken: null`): no cookie, nobody signed in in this browser; not an
 *   error, so that a page load signed out logs no failed request in the browser's console;
 * - 401 `SESSION_INVALID`: a cookie that does not open (altered, or sealed with another secret): cleared;
 * - 401 `SESSION_EXPIRED`: the refresh token's life is over: cleared;
 * - 401 `SESSION_REVOKED`: the upstream refused the refresh token (used, revoked, expired): cleared;
 * - 401 `SESSION_ENDED`: the session was logged out meanwhile: cleared;
 * - 403 `FORBIDDEN`: no `x-token-handler` header, or an origin that is not allowed; nothing was spent;
 * - 400 `BAD_REQUEST`, 404 `NOT_FOUND`, 405 `METHOD_NOT_ALLOWED`;
 * - 500 `MISCONFIGURED`: `uri` or `secret` was not set (the message names it);
 * - 503 `UPSTREAM_UNAVAILABLE`: no verdict (network, timeout, 5xx, or an uncertain refusal such as Apollo Server's
 *   `INTERNAL_SERVER_ERROR` until the upstream has answered a refresh token so three times); the cookie is kept,
 *   try again.
 */
export interface TokenHandlerError {
  readonly code: string;
  readonly message: string;
}

/**
 * A Fetch-API handler, `(request) => Promise<Response>`: mount it as it is in a Next.js route handler, Hono,
 * Deno or Bun, or through `toNodeHandler` in `node:http` and Express.
 */
export interface TokenHandler {
  (request: Request): Promise<Response>;
  /** The path the routes live under. */
  readonly basePath: string;
  /**
   * The access token to render a page with, for server rendering: the cookie's while it has `minTokenLife` to
   * live, else a renewed one (through the same rotation cache as the routes, so parallel renders of one
   * browser renew once). Send `setCookie` back with the page.
   */
  getServerSession(request: { readonly headers: Headers }): Promise<ServerSession>;
}

/** What the cookie holds, sealed. */
interface CookieSession {
  /** The refresh token. */
  readonly r: string;
  /** The access token issued with it. */
  readonly a: string;
  /** When the handler received `a`, in ms by its own clock (the upstream's may differ). */
  readonly t: number;
  readonly u?: TokenHandlerUser;
  /** When the refresh token's life ends, in ms. */
  readonly e: number;
  /** How many refreshes of `r` in a row the upstream answered with an uncertain refusal. */
  readonly n?: number;
}

// A refresh token whose refreshes the upstream answered with an uncertain refusal (Apollo Server's
// INTERNAL_SERVER_ERROR) this many times in a row is taken as refused, as the page's own session would.
const REFUSALS = 3;

/** What a rotation came to: a session, or a refusal (with the cookie to keep, when it changed). */
type Outcome =
  | { readonly session: CookieSession }
  | { readonly error: TokenHandlerError; readonly status: number; readonly keep?: CookieSession };

/** The request header every route requires: a page can only send it with `fetch`, which a CORS preflight guards. */
export const TOKEN_HANDLER_HEADER = 'x-token-handler';

const ROUTES = new Set(['login', 'refresh', 'logout']);
const UNAVAILABLE = 503;

/**
 * Creates a token handler: the backend that keeps the refresh token out of the browser (RFC 10017's
 * token-mediating backend). The browser logs in, refreshes and logs out through it and holds only the access
 * token; the refresh token lives in an encrypted, `HttpOnly` cookie.
 *
 * @remarks
 * Routes, all `POST` with JSON, each requiring the `x-token-handler` header and an allowed `Origin`:
 * `{basePath}/login` (`{ email, password }` → `{ accessToken, user }`), `{basePath}/refresh`
 * (`{ accessToken? }`: the token the page holds → `{ accessToken, user }`) and `{basePath}/logout`. Refusals
 * answer `{ error: { code, message } }` (see {@link TokenHandlerError}). Requests that present one refresh
 * token at once, or within `graceTime`, cause one upstream refresh and receive the same answer.
 *
 * @example
 * ```ts
 * // app/auth/[route]/route.ts (Next.js App Router)
 * const handler = createTokenHandler({ uri: process.env.GRAPHQL_URL!, secret: process.env.TOKEN_HANDLER_SECRET! });
 * export const POST = handler;
 * ```
 */
export function createTokenHandler(options: TokenHandlerOptions): TokenHandler {
  const {
    basePath = '/auth',
    // One process's handlers share one memory cache (a handler given its own clock, in tests, keeps its own).
    cache = options.now ? createMemoryRotationCache(options.now) : processWide('rotation-cache', createMemoryRotationCache),
    graceTime = 30_000,
    minTokenLife = 180_000,
    timeout = 10_000,
    now = Date.now,
  } = options;
  const { secure = true, sameSite = 'Strict', maxAge = 2_592_000 } = options.cookie ?? {};
  const name = options.cookie?.name ?? (secure ? '__Host-token-pair' : 'token-pair');
  // An option not set at all (an environment variable that a build does not have: `next build` loads the route
  // modules) fails each request with a message, not the import; one of the wrong shape throws here.
  const unset = (['uri', 'secret'] as const).filter((option) => options[option] === undefined);
  const misconfigured = unset.length
    ? `The token handler has no \`${unset.join('` and no `')}\`: set ${unset.map((option) => (option === 'uri' ? 'the upstream GraphQL URL' : 'a secret of at least 32 bytes (`openssl rand -base64 32`)')).join(' and ')} in createTokenHandler.`
    : undefined;
  const secret = options.secret ?? new Uint8Array(32);
  const cookies = createCookieSealer(secret, `cookie:${name}`);
  const outcomes = createCookieSealer(secret, 'rotation');
  const upstream = createGraphQLTransport({ uri: options.uri, fetch: options.fetch, headers: options.headers, documents: options.documents });
  const allowed = new Set(options.allowedOrigins);
  // Cookies whose logout is in flight in this process.
  const ending = processWide('ending', () => new Set<string>());
  // Sessions read from a cookie that an older secret of the ring sealed.
  const resealing = new WeakSet<CookieSession>();
  // Refused origins already logged, each once.
  const logged = new Set<string>();
  const attributes = `Path=/; HttpOnly; SameSite=${sameSite}${secure ? '; Secure' : ''}`;
  const clearCookie = `${name}=; Max-Age=0; ${attributes}`;
  // Rotations of this instance in flight, by key: the requests that present one refresh token join one.
  const running = new Map<string, Promise<Outcome>>();

  const report = (error: unknown) => {
    try {
      options.onError?.(error instanceof Error ? error : new Error(String(error)));
    } catch {
      // The app's logger failed: nothing else to tell.
    }
  };
  const signal = () => AbortSignal.timeout(timeout);
  const setCookie = async (session: CookieSession) =>
    `${name}=${await cookies.seal(session)}; Max-Age=${Math.max(0, Math.floor((session.e - now()) / 1000))}; ${attributes}`;
  const refusal = (status: number, code: string, message: string): Outcome => ({ status, error: { code, message } });
  const unavailable = (error: unknown): Outcome =>
    refusal(UNAVAILABLE, 'UPSTREAM_UNAVAILABLE', `The auth service could not be reached: ${(error as Error)?.message ?? error}`);

  async function readSession(headers: Headers, leaving = false): Promise<CookieSession | Outcome | null> {
    const value = readCookie(headers.get('cookie'), name);
    if (value === undefined) return null;
    if (!leaving && ending.has(value)) return refusal(401, 'SESSION_ENDED', 'The session was logged out: sign in again.');
    const opened = await cookies.open<CookieSession>(value);
    const session = opened?.value;
    if (!session || typeof session.r !== 'string') return refusal(401, 'SESSION_INVALID', 'The session cookie is not valid: sign in again.');
    if (session.e <= now()) return refusal(401, 'SESSION_EXPIRED', 'The session has expired: sign in again.');
    if (opened.stale) resealing.add(session);
    return session;
  }

  // How long the access token of `session` lives on, and its whole lifetime, in ms: timed from when this
  // handler received it, so a skew between its clock and the upstream's does not count.
  function lifeOf({ a, t }: CookieSession): { left: number; lifetime: number } {
    try {
      const { exp, iat } = jwtDecode<{ exp?: number; iat?: number }>(a);
      const lifetime = (exp! - (typeof iat === 'number' ? iat : t / 1000)) * 1000;
      return { left: t + lifetime - now(), lifetime };
    } catch {
      return { left: 0, lifetime: 0 };
    }
  }

  // Whether the cookie's access token may be handed out: `minTokenLife` left, or half its lifetime when that is
  // shorter (a client renews short-lived tokens late in their life, not 3 minutes before).
  function fresh(session: CookieSession): boolean {
    const { left, lifetime } = lifeOf(session);
    return left >= Math.min(minTokenLife, lifetime / 2);
  }

  // A refusal is kept for as long as the access token of the cookie it refuses could still be handed out: a
  // logout whose answer never reached the browser (the tab closed) leaves that cookie in place.
  const refusalTime = (session: CookieSession) => Math.max(graceTime, lifeOf(session).left);

  // The rotation of `session`, once per refresh token across requests and instances; an outcome kept from a
  // rotation that already ran is followed to the newest session it led to.
  async function rotate(session: CookieSession): Promise<Outcome> {
    const key = await keyOf(session.r);
    let rotation = running.get(key);
    if (!rotation) {
      rotation = rotateShared(key, session).finally(() => running.delete(key));
      running.set(key, rotation);
    }
    return rotation;
  }

  async function rotateShared(key: string, session: CookieSession): Promise<Outcome> {
    try {
      const kept = await newest(key);
      if (kept) return kept;
      if (!(await cache.claim(key, timeout + 1000))) return await awaitOutcome(key);
      // A rotation that finished between the look-up and the claim kept its outcome before letting go of its claim.
      const raced = await newest(key);
      if (raced) {
        await cache.release(key).catch(report);
        return raced;
      }
    } catch (error) {
      // Without the cache, nothing can tell whether another instance is spending this token right now.
      report(error);
      return unavailable(error);
    }
    let answer: unknown;
    try {
      answer = await upstream.refresh(session.r, signal());
    } catch (error) {
      // An uncertain refusal is no verdict yet: the cookie counts it, and the third in a row is one.
      const strikes = (session.n ?? 0) + 1;
      if (!AuthRejectedError.is(error) || (error.uncertain && strikes < REFUSALS)) {
        await cache.release(key).catch(report);
        return { ...unavailable(error), ...(AuthRejectedError.is(error) && { keep: { ...session, n: strikes } }) };
      }
    }
    // Refused, or answered without a pair: either way the token is spent and the session over.
    const pair = pairOf(answer);
    const outcome: Outcome = pair
      ? { session: { ...session, ...pair, t: now(), e: now() + maxAge * 1000, n: undefined } }
      : refusal(401, 'SESSION_REVOKED', 'The session was ended by the auth service: sign in again.');
    // Once the outcome is kept it answers; a claim that outlived it (a graceTime shorter than the claim) would
    // make later requests wait for a rotation that is over.
    if (await keep(key, outcome, pair ? graceTime : refusalTime(session))) await cache.release(key).catch(report);
    return outcome;
  }

  async function keep(key: string, outcome: Outcome, ttl: number): Promise<boolean> {
    try {
      await cache.put(key, await outcomes.seal(outcome), ttl);
      return true;
    } catch (error) {
      report(error);
      return false;
    }
  }

  // The outcome kept for `key`, followed through later rotations (a tab that raced two renewals gets the
  // newest) and to a logout that ended the chain.
  async function newest(key: string): Promise<Outcome | undefined> {
    let outcome: Outcome | undefined;
    for (let hops = 0; hops < 8; hops++) {
      const sealed = await cache.get(key);
      const next = sealed ? (await outcomes.open<Outcome>(sealed))?.value : undefined;
      if (!next) break;
      outcome = next;
      if (!('session' in next)) break;
      key = await keyOf(next.session.r);
    }
    return outcome;
  }

  async function awaitOutcome(key: string): Promise<Outcome> {
    const until = now() + timeout + 1000;
    while (now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      const outcome = await newest(key);
      if (outcome) return outcome;
    }
    return unavailable(new Error('another instance renewing this session did not finish in time'));
  }

  // The session a request may use now: the cookie's access token while it is fresh and news to the caller,
  // else a renewed pair.
  async function current(found: CookieSession, presented?: unknown): Promise<{ outcome: Outcome; renewed: boolean }> {
    if (found.a !== presented && fresh(found)) {
      // A session ended here (a logout) or refused upstream within graceTime is not handed out again.
      const kept = await newest(await keyOf(found.r)).catch(() => undefined);
      return { outcome: kept && !('session' in kept) ? kept : { session: found }, renewed: false };
    }
    const outcome = await rotate(found);
    return { outcome, renewed: 'session' in outcome && outcome.session.r !== found.r };
  }

  // What a request whose cookie holds `found` gets: the outcome, with the cookie to send back (a renewed one,
  // or one that clears a session refused for good). `/refresh` and server renders share it.
  async function resolve(found: CookieSession | Outcome, presented?: unknown): Promise<{ outcome: Outcome; cookies: string[] }> {
    const { outcome, renewed } = 'r' in found ? await current(found, presented) : { outcome: found, renewed: false };
    // Sealed with an older secret of the ring: sealed again with the newest.
    const reseal = renewed || ('r' in found && resealing.has(found));
    if ('session' in outcome) return { outcome, cookies: reseal ? [await setCookie(outcome.session)] : [] };
    return { outcome, cookies: outcome.status === 401 ? [clearCookie] : outcome.keep ? [await setCookie(outcome.keep)] : [] };
  }

  function answer({ outcome, cookies }: { outcome: Outcome; cookies: readonly string[] }): Response {
    if (!('session' in outcome)) return json(outcome.status, { error: outcome.error }, cookies);
    const { a, u, t } = outcome.session;
    return json(200, { accessToken: a, user: u ?? null, age: Math.max(0, now() - t) }, cookies);
  }

  // Revokes the newest pair of `found` on the upstream, and makes late requests that present it learn so.
  async function revoke(found: CookieSession): Promise<boolean> {
    const key = await keyOf(found.r);
    await running.get(key);
    const kept = await newest(key).catch(() => undefined);
    const last = kept && 'session' in kept ? kept.session : found;
    await keep(await keyOf(last.r), refusal(401, 'SESSION_ENDED', 'The session was logged out: sign in again.'), refusalTime(last));
    try {
      await upstream.logout({ accessToken: last.a, refreshToken: last.r }, signal());
      return true;
    } catch (error) {
      report(error);
      return false;
    }
  }

  async function login(request: Request, body: Record<string, unknown>): Promise<Response> {
    const { email, password } = body;
    if (typeof email !== 'string' || typeof password !== 'string') {
      return json(400, { error: { code: 'BAD_REQUEST', message: 'Send { "email": string, "password": string }.' } });
    }
    let session: CookieSession;
    try {
      const reply = await upstream.login(email, password, signal());
      const user = (reply as { user?: TokenHandlerUser }).user;
      const pair = pairOf(reply);
      if (!pair) return answer({ outcome: unavailable(new Error('the login answer carried no pair')), cookies: [] });
      session = { ...pair, ...(user && { u: { id: String(user.id), email: user.email, role: user.role } }), t: now(), e: now() + maxAge * 1000 };
    } catch (error) {
      if (AuthRejectedError.is(error)) {
        // Apollo Server puts INTERNAL_SERVER_ERROR on every refusal thrown without a code: not the page's business.
        const code = error.code && error.code !== 'INTERNAL_SERVER_ERROR' ? error.code : 'INVALID_CREDENTIALS';
        return json(401, { error: { code, message: error.errors[0]?.message ?? 'Wrong e-mail or password.' } });
      }
      return answer({ outcome: unavailable(error), cookies: [] });
    }
    // The session this browser had is replaced: its refresh token would otherwise stay valid for 30 days.
    // Awaited, so that a refresh of it still in flight has answered (and set its cookie) before this one's.
    const previous = await readSession(request.headers);
    if (previous && 'r' in previous) await revoke(previous);
    return json(200, { accessToken: session.a, user: session.u ?? null, age: 0 }, [await setCookie(session)]);
  }

  async function refresh(request: Request, body: Record<string, unknown>): Promise<Response> {
    const found = await readSession(request.headers);
    if (!found) return json(200, { accessToken: null, user: null, error: { code: 'NO_SESSION', message: 'Nobody is signed in.' } });
    return answer(await resolve(found, body.accessToken));
  }

  async function logout(request: Request): Promise<Response> {
    // From this moment, before anything is awaited, no request of this cookie gets its session: a server render
    // racing the logout (a reload right after "sign out") must not be handed the access token being revoked.
    const value = readCookie(request.headers.get('cookie'), name);
    if (value !== undefined) ending.add(value);
    const found = await readSession(request.headers, true);
    const revoked = await (found && 'r' in found ? revoke(found) : true);
    // The cache keeps the logout from here on (for every instance that shares it).
    if (value !== undefined) ending.delete(value);
    if (!revoked) {
      return json(UNAVAILABLE, { error: { code: 'UPSTREAM_UNAVAILABLE', message: 'Signed out here; the auth service could not be told.' } }, [clearCookie]);
    }
    return json(200, { ok: true }, [clearCookie]);
  }

  // Origins that may call: the handler's own, and those allowed. A missing Origin is refused: browsers send it
  // with every POST, and only a forged request lacks it.
  function refuse(request: Request, url: URL): string | undefined {
    const origin = request.headers.get('origin');
    if (!request.headers.get(TOKEN_HANDLER_HEADER)) return `The ${TOKEN_HANDLER_HEADER} header is required.`;
    const own = getOwnOrigins(request, url, options);
    if (origin && (own.includes(origin) || allowed.has(origin))) return;
    const message =
      `The origin ${origin ?? '(none)'} is not allowed: this handler takes its own origin to be ${own.join(' or ')}. ` +
      'Set `origin` (where the app is served), `allowedOrigins` (other origins), or `trustProxy` (behind a proxy that sets X-Forwarded-Host) in createTokenHandler.';
    if (!logged.has(message) && logged.size < 100) {
      logged.add(message);
      report(new Error(message));
    }
    return message;
  }

  // An allowed origin other than the handler's own may read every answer, refusals included.
  async function handle(request: Request): Promise<Response> {
    if (misconfigured) return json(500, { error: { code: 'MISCONFIGURED', message: misconfiguration() } });
    const origin = request.headers.get('origin');
    const response = await dispatch(request);
    if (origin && allowed.has(origin)) {
      response.headers.set('access-control-allow-origin', origin);
      response.headers.set('access-control-allow-credentials', 'true');
      response.headers.append('vary', 'origin');
    }
    return response;
  }

  async function dispatch(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const name = url.pathname.startsWith(`${basePath}/`) ? url.pathname.slice(basePath.length + 1) : '';
    if (!ROUTES.has(name)) return json(404, { error: { code: 'NOT_FOUND', message: `No route ${url.pathname}.` } });
    if (request.method === 'OPTIONS' && allowed.has(request.headers.get('origin')!)) {
      return new Response(null, {
        status: 204,
        headers: { 'access-control-allow-methods': 'POST', 'access-control-allow-headers': `content-type, ${TOKEN_HANDLER_HEADER}`, 'access-control-max-age': '600' },
      });
    }
    if (request.method !== 'POST') {
      return json(405, { error: { code: 'METHOD_NOT_ALLOWED', message: `${url.pathname} accepts POST.` } }, [], { allow: 'POST' });
    }
    const forbidden = refuse(request, url);
    if (forbidden) return json(403, { error: { code: 'FORBIDDEN', message: forbidden } });
    let body: Record<string, unknown> = {};
    const text = await readBody(request);
    if (text === undefined) return json(413, { error: { code: 'PAYLOAD_TOO_LARGE', message: `The body must be at most ${BODY_LIMIT} bytes.` } });
    try {
      if (text) body = JSON.parse(text);
      if (typeof body !== 'object' || body === null) throw new Error('not an object');
    } catch {
      return json(400, { error: { code: 'BAD_REQUEST', message: 'The body must be a JSON object of at most 16 kB.' } });
    }
    return name === 'login' ? login(request, body) : name === 'refresh' ? refresh(request, body) : logout(request);
  }

  function misconfiguration(): string {
    if (!logged.has(misconfigured!)) {
      logged.add(misconfigured!);
      report(new Error(misconfigured));
    }
    return misconfigured!;
  }

  async function getServerSession(request: { readonly headers: Headers }): Promise<ServerSession> {
    if (misconfigured) throw new Error(misconfiguration());
    const found = await readSession(request.headers);
    if (!found) return { accessToken: null, user: null, setCookie: [] };
    const { outcome, cookies } = await resolve(found);
    if ('session' in outcome) return { accessToken: outcome.session.a, user: outcome.session.u ?? null, setCookie: cookies };
    return { accessToken: null, user: null, setCookie: cookies, ...(outcome.status !== 401 && { error: outcome.error }) };
  }

  return Object.assign(handle, { basePath, getServerSession });
}

function pairOf(answer: unknown): { r: string; a: string } | undefined {
  const { accessToken, refreshToken } = (answer ?? {}) as Record<string, unknown>;
  if (typeof accessToken === 'string' && typeof refreshToken === 'string' && accessToken && refreshToken) {
    return { r: refreshToken, a: accessToken };
  }
}

async function keyOf(refreshToken: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(refreshToken)));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

// The cookie's value; '' (which opens as nothing: a clean 401) when it is sent twice or is larger than a browser
// would keep, so neither is decrypted nor chosen between.
function readCookie(header: string | null, name: string): string | undefined {
  const values = (header?.split(';') ?? []).map((part) => part.trim().split('=')).filter(([key]) => key === name);
  if (!values.length) return undefined;
  const value = values[0]!.slice(1).join('=');
  return values.length > 1 || value.length > 4096 ? '' : value;
}

function json(status: number, body: unknown, cookies: readonly string[] = [], extra: Record<string, string> = {}): Response {
  const headers = new Headers({ 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...extra });
  for (const cookie of cookies) headers.append('set-cookie', cookie);
  return new Response(JSON.stringify(body), { status, headers });
}
