import type { SessionResolver } from './createSessionResolver';
import type { Upstream } from './createUpstream';
import type { HandlerSession, TokenHandlerUser } from './HandlerSession';
import type { Outcome } from './Outcome';
import type { HandlerConfig } from './readHandlerOptions';
import type { SessionCookie } from './sessionCookie';

/** What {@link beginCookieSession} needs: the parts a new session touches. */
export interface BeginCookieSessionOptions extends Pick<HandlerConfig, 'sessionLife' | 'now' | 'report'> {
  readonly cookie: SessionCookie;
  /** The session the browser had, which the new one replaces. */
  readonly sessions: SessionResolver;
  readonly upstream: Upstream;
}

/** What a session begins with: the pair a login, a door or `adopt` was handed. */
export interface SessionStart {
  readonly pair: Pick<HandlerSession, 'refreshToken' | 'accessToken'>;
  /** The user as the answer (or the app, for `adopt`) named it: `id`, `email`, `role`. */
  readonly user?: unknown;
  /**
   * When the access token was issued, in ms by the handler's clock. @defaultValue now: the upstream issued it
   * for this request
   */
  readonly issuedAt?: number;
}

/** A session begun: what the cookie holds and the `Set-Cookie` values that store it; or why none could be. */
export type BegunSession =
  { readonly session: HandlerSession; readonly cookies: readonly string[] } | { readonly outcome: Outcome };

/**
 * Begins the cookie session of `start` for `request`'s browser: the half of a sign-in that follows the upstream's
 * pair, shared by `/login`, every door of `/sign-in` and `handler.adopt`. The pair is sealed into a new cookie
 * that lasts `sessionLife`, with the user; the session the browser had is revoked upstream. A pair too large
 * for the cookies a browser keeps is revoked upstream instead, and refused (`SESSION_TOO_LARGE`).
 */
export async function beginCookieSession(
  options: BeginCookieSessionOptions,
  request: Pick<Request, 'headers'>,
  start: SessionStart,
): Promise<BegunSession> {
  const { cookie, sessions, upstream, sessionLife, now, report } = options;
  const user = start.user as TokenHandlerUser | null | undefined;
  const session: HandlerSession = {
    ...start.pair,
    ...(user && { user: { id: String(user.id), email: user.email, role: user.role } }),
    receivedAt: start.issuedAt ?? now(),
    refreshExpiresAt: now() + sessionLife,
  };
  const cookies = await cookie.write(session, request.headers);
  if (!cookies) {
    // Never set a cookie the browser would drop: the user would be signed out at the next reload, with no word.
    await upstream
      .transport(request)
      .logout({ accessToken: session.accessToken, refreshToken: session.refreshToken }, upstream.signal())
      .catch(report);
    return { outcome: sessions.tooLarge(`an access token of ${session.accessToken.length} bytes`) };
  }
  // The session this browser had is replaced: its refresh token would otherwise stay valid for 30 days.
  // Awaited, so that a refresh of it still in flight has answered (and set its cookie) before this one's.
  const previous = await sessions.read(request.headers);
  if (previous && 'refreshToken' in previous) await sessions.revoke(request, previous, { replaced: true });
  return { session, cookies };
}
