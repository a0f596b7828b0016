import { AuthRejectedError } from '../index';
import { getClientAddress } from './clientAddress';
import type { LoginThrottleGate } from './createLoginThrottleGate';
import { pairOf } from './createRotator';
import type { SessionResolver } from './createSessionResolver';
import type { Upstream } from './createUpstream';
import type { GuardedRequest } from './guardRequest';
import { jsonResponse as json } from './jsonResponse';
import type { LoginAttempt } from './LoginThrottle';
import { type CookieSession, type TokenHandlerUser, unavailable } from './Outcome';
import type { HandlerConfig } from './readHandlerOptions';
import type { SessionCookie } from './sessionCookie';

/** What {@link createLoginRoute} needs. */
export interface LoginRouteOptions extends Pick<HandlerConfig, 'trustProxy' | 'sessionLife' | 'now' | 'report'> {
  readonly cookie: SessionCookie;
  /** The session the browser had, which a sign-in replaces. */
  readonly sessions: SessionResolver;
  readonly upstream: Upstream;
  /** The login throttle, which every route that signs in shares. */
  readonly gate: LoginThrottleGate;
}

/**
 * Creates the login route, `{basePath}/login`: `{ email, password }` past the throttle to the upstream's login,
 * the pair into a new cookie, the user and access token to the page. The session the browser had is revoked.
 */
export function createLoginRoute(
  options: LoginRouteOptions,
): (request: Request, guarded: GuardedRequest) => Promise<Response> {
  const { cookie, sessions, upstream, gate, trustProxy, sessionLife, now, report } = options;

  return async function login(request, { body }) {
    const { email, password } = body;
    if (typeof email !== 'string' || typeof password !== 'string') {
      return json(400, { error: { code: 'BAD_REQUEST', message: 'Send { "email": string, "password": string }.' } });
    }
    const attempt: LoginAttempt = { email, address: getClientAddress(request, { trustProxy }).address, request };
    const refused = await gate.check(attempt);
    if (refused) return refused;
    let session: CookieSession;
    try {
      const reply = await upstream.transport(request).login(email, password, upstream.signal());
      const user = (reply as { user?: TokenHandlerUser }).user;
      const pair = pairOf(reply);
      if (!pair)
        return sessions.answer({ outcome: unavailable(new Error('the login answer carried no pair')), cookies: [] });
      session = {
        ...pair,
        ...(user && { u: { id: String(user.id), email: user.email, role: user.role } }),
        t: now(),
        e: now() + sessionLife,
      };
    } catch (error) {
      if (AuthRejectedError.is(error)) {
        await gate.record(attempt, 'refused');
        // Apollo Server puts INTERNAL_SERVER_ERROR on every refusal thrown without a code: not the page's business.
        const code = error.code && error.code !== 'INTERNAL_SERVER_ERROR' ? error.code : 'INVALID_CREDENTIALS';
        return json(401, { error: { code, message: error.errors[0]?.message ?? 'Wrong e-mail or password.' } });
      }
      return sessions.answer({ outcome: unavailable(error), cookies: [] });
    }
    await gate.record(attempt, 'accepted');
    const cookies = await cookie.write(session, request.headers);
    if (!cookies) {
      // Never set a cookie the browser would drop: the user would be signed out at the next reload, with no word.
      await upstream
        .transport(request)
        .logout({ accessToken: session.a, refreshToken: session.r }, upstream.signal())
        .catch(report);
      return sessions.answer({
        outcome: sessions.tooLarge(`an access token of ${session.a.length} bytes`),
        cookies: [],
      });
    }
    // The session this browser had is replaced: its refresh token would otherwise stay valid for 30 days.
    // Awaited, so that a refresh of it still in flight has answered (and set its cookie) before this one's.
    const previous = await sessions.read(request.headers);
    if (previous && 'r' in previous) await sessions.revoke(request, previous, { replaced: true });
    return json(200, { accessToken: session.a, user: session.u ?? null, age: 0 }, cookies);
  };
}
