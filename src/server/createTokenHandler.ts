import { createLoginRoute } from './createLoginRoute';
import { createLoginThrottleGate } from './createLoginThrottleGate';
import { createSessionResolver } from './createSessionResolver';
import { createUpstream } from './createUpstream';
import { createRequestGuard, type GuardedRequest } from './guardRequest';
import { jsonResponse as json } from './jsonResponse';
import { type TokenHandlerError, type TokenHandlerUser, UNAVAILABLE } from './Outcome';
import { readHandlerOptions } from './readHandlerOptions';
import { createSessionCookie } from './sessionCookie';
import type { TokenHandlerOptions } from './TokenHandlerOptions';

export { TOKEN_HANDLER_HEADER } from './guardRequest';
export type { TokenHandlerError, TokenHandlerUser } from './Outcome';
export type { TokenHandlerCookieOptions, TokenHandlerOptions } from './TokenHandlerOptions';

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
  const config = readHandlerOptions(options);
  const { basePath, misconfigured, report } = config;
  const cookie = createSessionCookie(config.sessionCookie);
  const upstream = createUpstream(config);
  const sessions = createSessionResolver({ ...config, cookie, upstream });
  const guard = createRequestGuard(config);
  const gate = createLoginThrottleGate({ throttle: config.loginThrottle, report });
  const login = createLoginRoute({ ...config, cookie, sessions, upstream, gate });
  let misconfigurationTold = false;

  async function refresh(request: Request, { body }: GuardedRequest): Promise<Response> {
    const found = await sessions.read(request.headers);
    if (!found)
      return json(200, {
        accessToken: null,
        user: null,
        error: { code: 'NO_SESSION', message: 'Nobody is signed in.' },
      });
    return sessions.answer(await sessions.resolve(request, found, body.accessToken));
  }

  async function logout(request: Request): Promise<Response> {
    const revoked = await sessions.end(request);
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
    const found = await sessions.read(request.headers);
    if (!found) return { accessToken: null, user: null, setCookie: [] };
    const { outcome, cookies } = await sessions.resolve(request, found);
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
