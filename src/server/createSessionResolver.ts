import { AuthRejectedError } from '../index';
import { keyOf, createRotator } from './createRotator';
import type { Upstream } from './createUpstream';
import { jsonResponse as json } from './jsonResponse';
import type { HandlerSession } from './HandlerSession';
import { type Outcome, refusal } from './Outcome';
import { processWide } from './processWide';
import type { HandlerConfig } from './readHandlerOptions';
import { MAX_CHUNKS, type SessionCookie } from './sessionCookie';
import { getTokenLife } from './tokenLife';

// The refusal of a session that was logged out, here or on another instance (kept for it in the rotation cache).
const ENDED = refusal(401, 'SESSION_ENDED', 'The session was logged out: sign in again.');

/** What {@link createSessionResolver} needs. */
export interface SessionResolverOptions extends Pick<
  HandlerConfig,
  'cache' | 'secret' | 'timeout' | 'graceTime' | 'minTokenLife' | 'sessionLife' | 'now' | 'report'
> {
  readonly cookie: SessionCookie;
  readonly upstream: Upstream;
}

/** What a request gets: the outcome, with the `Set-Cookie` values to send back. */
export interface ResolvedSession {
  readonly outcome: Outcome;
  readonly cookies: readonly string[];
}

/** The session of a request's cookie, renewed and ended. See {@link createSessionResolver}. */
export interface SessionResolver {
  /**
   * The session of the cookie `headers` carry: `null` without a cookie; a refusal when it does not open, has
   * expired, or its logout is in flight.
   */
  read(headers: Headers): Promise<HandlerSession | Outcome | null>;
  /**
   * What a request whose cookie holds `found` gets: the outcome, with the cookies to send back (a renewed one, or
   * those that clear a session refused for good). `presented` is the access token the page wants replaced.
   */
  resolve(
    request: Pick<Request, 'headers'>,
    found: HandlerSession | Outcome,
    presented?: unknown,
  ): Promise<ResolvedSession>;
  /** The JSON answer of a resolved session: `{ accessToken, user, age }`, or `{ error }`. */
  answer(resolved: ResolvedSession): Response;
  /**
   * Revokes the newest pair of `found` on the upstream, and makes late requests that present it learn so;
   * `replaced`: by a sign-in in this browser, whose answer sets the new cookie. Resolves whether the upstream
   * has the session ended (told so, or it was over there already).
   */
  revoke(
    request: Pick<Request, 'headers'>,
    found: HandlerSession,
    options?: { readonly replaced?: boolean },
  ): Promise<boolean>;
  /** Logs out the session of `request`'s cookie: resolves whether the upstream has it ended. */
  end(request: Request): Promise<boolean>;
  /** The refusal of a session too large for the cookies a browser keeps (reported); `size` says what made it so. */
  tooLarge(size: string): Outcome;
}

/**
 * Creates the session resolver of a token handler: everything about the session a request's cookie holds. It
 * opens the cookie, hands out its access token while it is fresh, rotates the pair otherwise (one rotation per
 * refresh token, through the rotation cache), seals a cookie that an older secret sealed again, and revokes a
 * session on logout or when a sign-in replaces it.
 */
export function createSessionResolver(options: SessionResolverOptions): SessionResolver {
  const { cookie, upstream, graceTime, minTokenLife, now, report } = options;
  // Cookies whose logout is in flight in this process.
  const ending = processWide('ending', () => new Set<string>());
  // Sessions read from a cookie that an older secret of the ring sealed.
  const resealing = new WeakSet<object>();
  // A refusal is kept for as long as the access token of the cookie it refuses could still be handed out: a
  // logout whose answer never reached the browser (the tab closed) leaves that cookie in place.
  const refusalTime = (session: HandlerSession) => Math.max(graceTime, getTokenLife(session, now()).left);
  const rotator = createRotator({ ...options, refusalTime });

  const tooLarge = (size: string): Outcome => {
    const message = `The session does not fit in the ${MAX_CHUNKS} cookies a browser keeps for it (${size}): make the service's tokens smaller.`;
    report(new Error(message));
    return refusal(500, 'SESSION_TOO_LARGE', message);
  };

  // `loggingOut`: the logout's own read, which put the cookie among those `ending` itself.
  async function readSession(headers: Headers, { loggingOut = false } = {}): Promise<HandlerSession | Outcome | null> {
    const opened = await cookie.open(headers);
    if (!opened) return null;
    if (!loggingOut && ending.has(opened.value)) return ENDED;
    const { session } = opened;
    if (!session) return refusal(401, 'SESSION_INVALID', 'The session cookie is not valid: sign in again.');
    if (session.refreshExpiresAt <= now())
      return refusal(401, 'SESSION_EXPIRED', 'The session has expired: sign in again.');
    if (opened.stale) resealing.add(session);
    return session;
  }

  // Whether the cookie's access token may be handed out: `minTokenLife` left, or half its lifetime when that is
  // shorter (a client renews short-lived tokens late in their life, not 3 minutes before).
  function fresh(session: HandlerSession): boolean {
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
    found: HandlerSession,
    presented?: unknown,
  ): Promise<{ outcome: Outcome; renewed: boolean }> {
    // A session ended here (a logout) or refused upstream within graceTime is not handed out again.
    const kept = await rotator.newest(await keyOf(found)).catch(() => undefined);
    if (kept && !('session' in kept)) return { outcome: kept, renewed: false };
    const newest = kept ? kept.session : found;
    const key = await keyOf(newest);
    // Noted until the rotation's outcome is kept, so that a request that presents an older token meanwhile, here
    // or on another instance, joins the rotation.
    if (newest.accessToken === presented) await rotator.refuse(key);
    else if (fresh(newest) && !(await rotator.refused(key)))
      return { outcome: { session: newest }, renewed: newest !== found };
    const outcome = await rotator.rotate(newest, upstream.transport(request), upstream.signal());
    // A server that does not rotate refresh tokens renews the access token alone: a new pair all the same.
    const { session } = 'session' in outcome ? outcome : {};
    return {
      outcome,
      renewed: !!session && (session.refreshToken !== found.refreshToken || session.accessToken !== found.accessToken),
    };
  }

  async function resolve(
    request: Pick<Request, 'headers'>,
    found: HandlerSession | Outcome,
    presented?: unknown,
  ): Promise<ResolvedSession> {
    const { outcome, renewed } =
      'refreshToken' in found ? await current(request, found, presented) : { outcome: found, renewed: false };
    const { headers } = request;
    if ('session' in outcome) {
      // Sealed with an older secret of the ring: sealed again with the newest.
      if (!renewed && !resealing.has(found)) return { outcome, cookies: [] };
      const cookies = await cookie.write(outcome.session, headers);
      return cookies
        ? { outcome, cookies }
        : {
            outcome: tooLarge(`a renewed access token of ${outcome.session.accessToken.length} bytes`),
            cookies: cookie.clear(headers),
          };
    }
    if (outcome.status === 401) return { outcome, cookies: outcome.replaced ? [] : cookie.clear(headers) };
    return { outcome, cookies: (outcome.keep && (await cookie.write(outcome.keep, headers))) || [] };
  }

  function answer({ outcome, cookies }: ResolvedSession): Response {
    if (!('session' in outcome)) return json(outcome.status, { error: outcome.error }, cookies);
    const { accessToken, user, receivedAt } = outcome.session;
    return json(200, { accessToken, user: user ?? null, age: Math.max(0, now() - receivedAt) }, cookies);
  }

  async function revoke(
    request: Pick<Request, 'headers'>,
    found: HandlerSession,
    { replaced = false } = {},
  ): Promise<boolean> {
    const key = await keyOf(found);
    await rotator.settled(key);
    const kept = await rotator.newest(key).catch(() => undefined);
    const last = kept && 'session' in kept ? kept.session : found;
    await rotator.keep(await keyOf(last), replaced ? { ...ENDED, replaced } : ENDED, refusalTime(last));
    try {
      await upstream
        .transport(request)
        .logout({ accessToken: last.accessToken, refreshToken: last.refreshToken }, upstream.signal());
      return true;
    } catch (error) {
      // Refused: the session was over upstream already (revoked, expired), which is what a logout asks for.
      if (AuthRejectedError.is(error)) return true;
      report(error);
      return false;
    }
  }

  async function end(request: Request): Promise<boolean> {
    // From this moment, before anything is awaited, no request of this cookie gets its session: a server render
    // racing the logout (a reload right after "sign out") must not be handed the access token being revoked.
    const value = cookie.value(request.headers);
    if (value) ending.add(value);
    const found = await readSession(request.headers, { loggingOut: true });
    const revoked = await (found && 'refreshToken' in found ? revoke(request, found) : true);
    // The cache keeps the logout from here on (for every instance that shares it).
    if (value) ending.delete(value);
    return revoked;
  }

  return { read: (headers) => readSession(headers), resolve, answer, revoke, end, tooLarge };
}
