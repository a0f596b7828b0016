import { AuthRejectedError, createGraphQLTransport, type GraphQLTransportOptions } from '../index';
import { getClientAddress } from './clientAddress';
import { keyOf, pairOf, createRotator } from './createRotator';
import { createRequestGuard, type GuardedRequest } from './guardRequest';
import { jsonResponse as json } from './jsonResponse';
import type { LoginAttempt, LoginThrottle } from './LoginThrottle';
import {
  type CookieSession,
  type Outcome,
  refusal,
  type TokenHandlerError,
  type TokenHandlerUser,
  UNAVAILABLE,
  unavailable,
} from './Outcome';
import { processWide } from './processWide';
import { createMemoryRotationCache, type RotationCache } from './RotationCache';
import type { Secrets } from './sealCookie';
import { createSessionCookie, MAX_CHUNKS } from './sessionCookie';
import { getTokenLife } from './tokenLife';

export { TOKEN_HANDLER_HEADER } from './guardRequest';
export type { TokenHandlerError, TokenHandlerUser } from './Outcome';

/** Options of {@link createTokenHandler}. */
export interface TokenHandlerOptions {
  /** The upstream GraphQL service that serves `loginWithEmailPassword`, `refreshToken` and `logout`. */
  uri: string;
  /**
   * The secret the cookie is encrypted with: at least 32 bytes, the same on every instance. To rotate it, pass a
   * list, the newest first: the first seals, every one opens, and a cookie sealed with an older one is sealed
   * again with the first on its next answer. A secret taken off the list signs out the cookies only it sealed.
   * Across several instances, roll a new secret out in two steps, one instance at a time each: first as the
   * second of the list (`[old, new]`: it opens, the old still seals), then as the first (`[new, old]`). In one
   * step, an instance not yet updated meets a cookie that an updated one sealed, cannot open it, and signs that
   * session out.
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
   * Whether a proxy in front of the handler sets `X-Forwarded-Host`, `X-Forwarded-Proto` and `X-Forwarded-For`
   * (overwriting or appending to what the browser sent): then they name the handler's own origin too, and the
   * client's address is the one the proxy appended to `X-Forwarded-For`. Either way the handler forwards the
   * client's address to the upstream on every call, as `X-Forwarded-For` (the peer's, as `toNodeHandler`
   * knows it, appended), so that the service's own throttling sees the user rather than the handler.
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
  /**
   * Slows down password guessing: asked before each login is sent upstream, it may refuse it (HTTP 429 with
   * `Retry-After`). The recipe with rate-limiter-flexible on Redis is in docs/token-handler.md.
   */
  loginThrottle?: LoginThrottle;
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

/**
 * Creates a token handler: the backend that keeps the refresh token out of the browser (RFC 10017's
 * token-mediating backend). The browser logs in, refreshes and logs out through it and holds only the access
 * token; the refresh token lives in an encrypted, `HttpOnly` cookie.
 *
 * @remarks
 * Routes, all `POST` with JSON, each requiring the `x-token-handler` header and an allowed `Origin`:
 * `{basePath}/login` (`{ email, password }` → `{ accessToken, user }`), `{basePath}/refresh`
 * (`{ accessToken? }`: the token the page wants replaced, the one the API refused → `{ accessToken, user }`) and
 * `{basePath}/logout`. Refusals answer `{ error: { code, message } }` (see {@link TokenHandlerError}). Requests
 * that present one refresh token at once, or within `graceTime`, cause one upstream refresh and receive the same
 * answer. A refresh rotates upstream only when `accessToken` is the session's newest (or that pair is near its
 * end); one that names an older token, or none, gets the newest pair with no upstream call, unless a page
 * reported that one refused too.
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
    cache = options.now
      ? createMemoryRotationCache(options.now)
      : processWide('rotation-cache', createMemoryRotationCache),
    graceTime = 30_000,
    minTokenLife = 180_000,
    timeout = 10_000,
    now = Date.now,
  } = options;
  const { secure = true, sameSite = 'Strict', maxAge = 2_592_000 } = options.cookie ?? {};
  // An option not set at all (an environment variable that a build does not have: `next build` loads the route
  // modules) fails each request with a message, not the import; one of the wrong shape throws here.
  const unset = (['uri', 'secret'] as const).filter((option) => options[option] === undefined);
  const misconfigured = unset.length
    ? `The token handler has no \`${unset.join('` and no `')}\`: set ${unset.map((option) => (option === 'uri' ? 'the upstream GraphQL URL' : 'a secret of at least 32 bytes (`openssl rand -base64 32`)')).join(' and ')} in createTokenHandler.`
    : undefined;
  const secret = options.secret ?? new Uint8Array(32);
  const cookie = createSessionCookie({
    name: options.cookie?.name ?? (secure ? '__Host-token-pair' : 'token-pair'),
    secret,
    secure,
    sameSite,
    now,
  });
  const trustProxy = options.trustProxy ?? false;
  // Cookies whose logout is in flight in this process.
  const ending = processWide('ending', () => new Set<string>());
  // Sessions read from a cookie that an older secret of the ring sealed.
  const resealing = new WeakSet<CookieSession>();
  let misconfigurationTold = false;

  const report = (error: unknown) => {
    try {
      options.onError?.(error instanceof Error ? error : new Error(String(error)));
    } catch {
      // The app's logger failed: nothing else to tell.
    }
  };
  const guard = createRequestGuard({ ...options, basePath, report });
  // A refusal is kept for as long as the access token of the cookie it refuses could still be handed out: a
  // logout whose answer never reached the browser (the tab closed) leaves that cookie in place.
  const refusalTime = (session: CookieSession) => Math.max(graceTime, getTokenLife(session, now()).left);
  const rotator = createRotator({
    cache,
    secret,
    timeout,
    graceTime,
    sessionLife: maxAge * 1000,
    refusalTime,
    now,
    report,
  });
  const signal = () => AbortSignal.timeout(timeout);
  // The upstream, as called for `request`: with the client's address, so that the service's own throttling
  // sees the user and not the handler.
  const upstreamFor = (request: Pick<Request, 'headers'>) => {
    const { forwardedFor } =
      request instanceof Request ? getClientAddress(request, { trustProxy }) : { forwardedFor: undefined };
    const headers = forwardedFor ? { ...options.headers, 'x-forwarded-for': forwardedFor } : options.headers;
    return createGraphQLTransport({ uri: options.uri, fetch: options.fetch, headers, documents: options.documents });
  };
  const tooLarge = (size: string): Outcome => {
    const message = `The session does not fit in the ${MAX_CHUNKS} cookies a browser keeps for it (${size}): make the service's tokens smaller.`;
    report(new Error(message));
    return refusal(500, 'SESSION_TOO_LARGE', message);
  };

  // `loggingOut`: the logout's own read, which put the cookie among those `ending` itself.
  async function readSession(headers: Headers, { loggingOut = false } = {}): Promise<CookieSession | Outcome | null> {
    const opened = await cookie.open(headers);
    if (!opened) return null;
    if (!loggingOut && ending.has(opened.value))
      return refusal(401, 'SESSION_ENDED', 'The session was logged out: sign in again.');
    const { session } = opened;
    if (!session) return refusal(401, 'SESSION_INVALID', 'The session cookie is not valid: sign in again.');
    if (session.e <= now()) return refusal(401, 'SESSION_EXPIRED', 'The session has expired: sign in again.');
    if (opened.stale) resealing.add(session);
    return session;
  }

  // Whether the cookie's access token may be handed out: `minTokenLife` left, or half its lifetime when that is
  // shorter (a client renews short-lived tokens late in their life, not 3 minutes before).
  function fresh(session: CookieSession): boolean {
    const { left, lifetime } = getTokenLife(session, now());
    return left >= Math.min(minTokenLife, lifetime / 2);
  }

  // The session a request may use now. `presented` is the access token the page wants replaced: the one its
  // operation carried when the API refused it (or one near its end). The session's newest pair (the cookie's, or
  // the one a rotation of it led to, for a request that left before the answer that set a newer cookie) is
  // rotated when it is that token; otherwise it is handed out, with no upstream call, while it is fresh and
  // no page reported it refused. So only the session's current token can cause a rotation, and a token a page
  // reported refused is never handed out again.
  async function current(
    request: Pick<Request, 'headers'>,
    found: CookieSession,
    presented?: unknown,
  ): Promise<{ outcome: Outcome; renewed: boolean }> {
    // A session ended here (a logout) or refused upstream within graceTime is not handed out again.
    const kept = await rotator.newest(await keyOf(found.r)).catch(() => undefined);
    if (kept && !('session' in kept)) return { outcome: kept, renewed: false };
    const newest = kept ? kept.session : found;
    const key = await keyOf(newest.r);
    // Noted until the rotation's outcome is kept, so that a request that presents an older token meanwhile, here
    // or on another instance, joins the rotation.
    if (newest.a === presented) await rotator.refuse(key);
    else if (fresh(newest) && !(await rotator.refused(key)))
      return { outcome: { session: newest }, renewed: newest !== found };
    const outcome = await rotator.rotate(newest, upstreamFor(request), signal());
    return { outcome, renewed: 'session' in outcome && outcome.session.r !== found.r };
  }

  // What a request whose cookie holds `found` gets: the outcome, with the cookies to send back (a renewed one,
  // or those that clear a session refused for good). `/refresh` and server renders share it.
  async function resolve(
    request: Pick<Request, 'headers'>,
    found: CookieSession | Outcome,
    presented?: unknown,
  ): Promise<{ outcome: Outcome; cookies: string[] }> {
    const { outcome, renewed } =
      'r' in found ? await current(request, found, presented) : { outcome: found, renewed: false };
    const { headers } = request;
    if ('session' in outcome) {
      // Sealed with an older secret of the ring: sealed again with the newest.
      if (!renewed && !('r' in found && resealing.has(found))) return { outcome, cookies: [] };
      const cookies = await cookie.write(outcome.session, headers);
      return cookies
        ? { outcome, cookies }
        : {
            outcome: tooLarge(`a renewed access token of ${outcome.session.a.length} bytes`),
            cookies: cookie.clear(headers),
          };
    }
    if (outcome.status === 401) return { outcome, cookies: outcome.replaced ? [] : cookie.clear(headers) };
    return { outcome, cookies: (outcome.keep && (await cookie.write(outcome.keep, headers))) || [] };
  }

  function answer({ outcome, cookies }: { outcome: Outcome; cookies: readonly string[] }): Response {
    if (!('session' in outcome)) return json(outcome.status, { error: outcome.error }, cookies);
    const { a, u, t } = outcome.session;
    return json(200, { accessToken: a, user: u ?? null, age: Math.max(0, now() - t) }, cookies);
  }

  // Revokes the newest pair of `found` on the upstream, and makes late requests that present it learn so.
  // `replaced`: by a sign-in in this browser, whose answer sets the new cookie.
  async function revoke(request: Request, found: CookieSession, { replaced = false } = {}): Promise<boolean> {
    const key = await keyOf(found.r);
    await rotator.settled(key);
    const kept = await rotator.newest(key).catch(() => undefined);
    const last = kept && 'session' in kept ? kept.session : found;
    const ended = refusal(401, 'SESSION_ENDED', 'The session was logged out: sign in again.');
    await rotator.keep(await keyOf(last.r), replaced ? { ...ended, replaced } : ended, refusalTime(last));
    try {
      await upstreamFor(request).logout({ accessToken: last.a, refreshToken: last.r }, signal());
      return true;
    } catch (error) {
      // Refused: the session was over upstream already (revoked, expired), which is what a logout asks for.
      if (AuthRejectedError.is(error)) return true;
      report(error);
      return false;
    }
  }

  async function login(request: Request, { body }: GuardedRequest): Promise<Response> {
    const { email, password } = body;
    if (typeof email !== 'string' || typeof password !== 'string') {
      return json(400, { error: { code: 'BAD_REQUEST', message: 'Send { "email": string, "password": string }.' } });
    }
    const attempt: LoginAttempt = { email, address: getClientAddress(request, { trustProxy }).address, request };
    const refused = await throttled(attempt);
    if (refused) return refused;
    let session: CookieSession;
    try {
      const reply = await upstreamFor(request).login(email, password, signal());
      const user = (reply as { user?: TokenHandlerUser }).user;
      const pair = pairOf(reply);
      if (!pair) return answer({ outcome: unavailable(new Error('the login answer carried no pair')), cookies: [] });
      session = {
        ...pair,
        ...(user && { u: { id: String(user.id), email: user.email, role: user.role } }),
        t: now(),
        e: now() + maxAge * 1000,
      };
    } catch (error) {
      if (AuthRejectedError.is(error)) {
        await record(attempt, 'refused');
        // Apollo Server puts INTERNAL_SERVER_ERROR on every refusal thrown without a code: not the page's business.
        const code = error.code && error.code !== 'INTERNAL_SERVER_ERROR' ? error.code : 'INVALID_CREDENTIALS';
        return json(401, { error: { code, message: error.errors[0]?.message ?? 'Wrong e-mail or password.' } });
      }
      return answer({ outcome: unavailable(error), cookies: [] });
    }
    await record(attempt, 'accepted');
    const cookies = await cookie.write(session, request.headers);
    if (!cookies) {
      // Never set a cookie the browser would drop: the user would be signed out at the next reload, with no word.
      await upstreamFor(request).logout({ accessToken: session.a, refreshToken: session.r }, signal()).catch(report);
      return answer({ outcome: tooLarge(`an access token of ${session.a.length} bytes`), cookies: [] });
    }
    // The session this browser had is replaced: its refresh token would otherwise stay valid for 30 days.
    // Awaited, so that a refresh of it still in flight has answered (and set its cookie) before this one's.
    const previous = await readSession(request.headers);
    if (previous && 'r' in previous) await revoke(request, previous, { replaced: true });
    return json(200, { accessToken: session.a, user: session.u ?? null, age: 0 }, cookies);
  }

  // The throttle's refusal of `attempt`, if it refuses; a throttle that fails lets the login through.
  async function throttled(attempt: LoginAttempt): Promise<Response | undefined> {
    let verdict: { retryAfter: number } | void;
    try {
      verdict = await options.loginThrottle?.check(attempt);
    } catch (error) {
      report(error);
      return;
    }
    if (!verdict) return;
    const seconds = Math.max(1, Math.ceil(verdict.retryAfter / 1000));
    const message = `Too many sign-in attempts: try again in ${seconds} s.`;
    return json(429, { error: { code: 'TOO_MANY_ATTEMPTS', message, retryAfter: seconds * 1000 } }, [], {
      'retry-after': String(seconds),
    });
  }

  async function record(attempt: LoginAttempt, outcome: 'accepted' | 'refused'): Promise<void> {
    try {
      await options.loginThrottle?.record?.(attempt, outcome);
    } catch (error) {
      report(error);
    }
  }

  async function refresh(request: Request, { body }: GuardedRequest): Promise<Response> {
    const found = await readSession(request.headers);
    if (!found)
      return json(200, {
        accessToken: null,
        user: null,
        error: { code: 'NO_SESSION', message: 'Nobody is signed in.' },
      });
    return answer(await resolve(request, found, body.accessToken));
  }

  async function logout(request: Request): Promise<Response> {
    // From this moment, before anything is awaited, no request of this cookie gets its session: a server render
    // racing the logout (a reload right after "sign out") must not be handed the access token being revoked.
    const value = cookie.value(request.headers);
    if (value) ending.add(value);
    const found = await readSession(request.headers, { loggingOut: true });
    const revoked = await (found && 'r' in found ? revoke(request, found) : true);
    // The cache keeps the logout from here on (for every instance that shares it).
    if (value) ending.delete(value);
    const cleared = cookie.clear(request.headers);
    if (!revoked) {
      return json(
        UNAVAILABLE,
        { error: { code: 'UPSTREAM_UNAVAILABLE', message: 'Signed out here; the auth service could not be told.' } },
        cleared,
      );
    }
    return json(200, { ok: true }, cleared);
  }

  function misconfiguration(): string {
    if (!misconfigurationTold) report(new Error(misconfigured));
    misconfigurationTold = true;
    return misconfigured!;
  }

  async function handle(request: Request): Promise<Response> {
    if (misconfigured) return json(500, { error: { code: 'MISCONFIGURED', message: misconfiguration() } });
    const checked = await guard.check(request);
    if (checked instanceof Response) return guard.share(request, checked);
    const route = checked.route === 'login' ? login : checked.route === 'refresh' ? refresh : logout;
    return guard.share(request, await route(request, checked));
  }

  async function getServerSession(request: { readonly headers: Headers }): Promise<ServerSession> {
    if (misconfigured) throw new Error(misconfiguration());
    const found = await readSession(request.headers);
    if (!found) return { accessToken: null, user: null, setCookie: [] };
    const { outcome, cookies } = await resolve(request, found);
    if ('session' in outcome)
      return { accessToken: outcome.session.a, user: outcome.session.u ?? null, setCookie: cookies };
    return {
      accessToken: null,
      user: null,
      setCookie: cookies,
      ...(outcome.status !== 401 && { error: outcome.error }),
    };
  }

  return Object.assign(handle, { basePath, getServerSession });
}
