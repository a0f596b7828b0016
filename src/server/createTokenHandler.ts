import type { AdoptedPair } from '../index';
import { type AdoptedSession, createAdopt } from './createAdopt';
import { createLoginRoute } from './createLoginRoute';
import { createLoginThrottleGate } from './createLoginThrottleGate';
import { createSessionResolver } from './createSessionResolver';
import { createSignInRoute } from './createSignInRoute';
import { createUpstream } from './createUpstream';
import { createRequestGuard, type GuardedRequest, type TokenHandlerRoute } from './guardRequest';
import { errorResponse, jsonResponse as json } from './jsonResponse';
import type { TokenHandlerUser } from './HandlerSession';
import { type TokenHandlerError, UNAVAILABLE } from './Outcome';
import { readHandlerOptions } from './readHandlerOptions';
import { createSessionCookie } from './sessionCookie';
import type { TokenHandlerOptions } from './TokenHandlerOptions';

export type { AdoptedSession } from './createAdopt';
export { TOKEN_HANDLER_HEADER } from './guardRequest';
export type { TokenHandlerError } from './Outcome';
export type { TokenHandlerUser } from './HandlerSession';
export type { TokenHandlerCookieOptions, TokenHandlerOptions, UpstreamContext } from './TokenHandlerOptions';

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
  /**
   * Begins a session from a pair the app's own server obtained (an OAuth callback, an invitation link, a magic
   * link): seals it into the cookie of `request`'s browser as a login would, revoking the session that browser had,
   * and resolves the `Set-Cookie` values to send back with the server's response. `user` is what the cookie keeps
   * of the user (else the page reads the access token's claims).
   *
   * @remarks
   * Nothing is sent upstream about the pair. The page then restores the session with one `/refresh`, as after a
   * reload, answered from the cookie while the access token is fresh. The page never holds the refresh token, so
   * this is the token handler's `adopt`: the page's `auth.adopt(pair)` is refused in token-handler mode.
   *
   * @throws A `TypeError` saying what is wrong when the pair is not an access token that decodes as a JWT with
   * `exp` and a non-empty refresh token; an `Error` when the handler is misconfigured, or the pair does not fit in
   * the cookies a browser keeps.
   *
   * @example An OAuth callback that redirects to the app with the session's cookie
   * ```ts
   * const handler = createTokenHandler({ uri, secret });
   * declare function exchangeCode(code: string): Promise<{ accessToken: string; refreshToken: string }>;
   *
   * // app/auth/callback/route.ts (Next.js App Router): GET /auth/callback?code=…
   * export async function GET(request: Request): Promise<Response> {
   *   const code = new URL(request.url).searchParams.get('code') ?? '';
   *   const pair = await exchangeCode(code); // your API's own sign-in, on the server
   *   const { setCookie } = await handler.adopt(request, pair);
   *   const headers = new Headers({ location: '/' });
   *   for (const cookie of setCookie) headers.append('set-cookie', cookie);
   *   return new Response(null, { status: 303, headers });
   * }
   * ```
   */
  adopt(request: { readonly headers: Headers }, pair: AdoptedPair, user?: TokenHandlerUser): Promise<AdoptedSession>;
}

/**
 * Creates a token handler: the backend that keeps the refresh token out of the browser (RFC 10017's
 * token-mediating backend). The browser logs in, refreshes and logs out through it and holds only the access
 * token; the refresh token lives in an encrypted, `HttpOnly` cookie.
 *
 * @remarks
 * Routes, all `POST` with JSON, each requiring the `x-token-handler` header and an allowed `Origin`:
 * `{basePath}/login` (`{ email, password }` → `{ accessToken, user }`), `{basePath}/sign-in` (`{ name,
 * variables }`: the door `name` of `signIns` → `{ accessToken, user }`, or `{ next }`), `{basePath}/refresh`
 * (`{ accessToken? }`: the token the page wants replaced, the one the API refused → `{ accessToken, user }`) and
 * `{basePath}/logout`. Refusals answer `{ error: { code, message } }` (see {@link TokenHandlerError}). The
 * upstream is the GraphQL service at `uri`, or `upstream`, a transport of the app's own (a REST server). Requests
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
  const gate = createLoginThrottleGate(config);
  const parts = { ...config, cookie, sessions, upstream, gate };
  const adopt = createAdopt(parts);
  const routes: Record<TokenHandlerRoute, (request: Request, guarded: GuardedRequest) => Promise<Response>> = {
    login: createLoginRoute(parts),
    'sign-in': createSignInRoute(parts),
    refresh,
    logout,
  };
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
      return errorResponse(
        UNAVAILABLE,
        'UPSTREAM_UNAVAILABLE',
        'Signed out here; the auth service could not be told.',
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
    if (misconfigured) return errorResponse(500, 'MISCONFIGURED', misconfiguration());
    const checked = await guard.check(request);
    if (checked instanceof Response) return guard.share(request, checked);
    return guard.share(request, await routes[checked.route](request, checked));
  }

  async function getServerSession(request: { readonly headers: Headers }): Promise<ServerSession> {
    if (misconfigured) throw new Error(misconfiguration());
    const found = await sessions.read(request.headers);
    if (!found) return { accessToken: null, user: null, setCookie: [] };
    const { outcome, cookies } = await sessions.resolve(request, found);
    if ('session' in outcome)
      return { accessToken: outcome.session.accessToken, user: outcome.session.user ?? null, setCookie: cookies };
    return {
      accessToken: null,
      user: null,
      setCookie: cookies,
      ...(outcome.status !== 401 && { error: outcome.error }),
    };
  }

  return Object.assign(handle, {
    basePath,
    getServerSession,
    adopt: async (...args: Parameters<TokenHandler['adopt']>) => {
      if (misconfigured) throw new Error(misconfiguration());
      return adopt(...args);
    },
  });
}
