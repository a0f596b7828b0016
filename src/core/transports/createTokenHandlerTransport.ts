import { AuthRejectedError, rejectionMessage } from '../errors/AuthRejectedError';
import { unreachable } from './unreachable';
import { AuthRequestError } from '../errors/AuthRequestError';
import { LoginThrottledError } from '../errors/LoginThrottledError';
import { SessionEndedError } from '../errors/SessionEndedError';
import { createCookieSessionStore } from '../stores/createCookieSessionStore';
import type { SignInAnswer, TokenAuthTransport, TransportAnswer } from './TokenAuthTransport';

/** Options of {@link createTokenHandlerTransport}. */
export interface TokenHandlerTransportOptions {
  /** The `fetch` the page calls the handler with. @defaultValue `globalThis.fetch`, read at call time */
  fetch?: typeof fetch;
}

/** The token handler's answer, as far as the transport reads it: a pair's fields, or an error. */
interface HandlerAnswer {
  readonly accessToken?: string;
  /** A sign-in door's step that begins no session. */
  readonly next?: unknown;
  readonly error?: { readonly code?: string; readonly message?: string; readonly retryAfter?: unknown };
}

/**
 * Token-handler mode: login, refresh and logout go to a token handler (`createTokenHandler` of
 * `apollo-link-token-pair/server`), which keeps the refresh token in an `HttpOnly` cookie. The page holds the
 * access token only; in the pair the session keeps, it stands in for the refresh token too. It brings its own
 * store: a page load restores the session with one refresh (`loading` until it knows), and the tabs of the origin
 * follow each other's login and logout.
 *
 * @remarks
 * `NO_SESSION` (no cookie: nobody signed in, answered 200) and `SESSION_ENDED` (logged out) are a
 * {@link SessionEndedError} of reason `no-session` and `logout`; any other 401 is a verdict
 * ({@link AuthRejectedError}). Anything else without an access token (the network, 5xx) is an
 * {@link AuthRequestError}: the session, and the cookie, are kept; a 403 on a refresh (the handler refuses this
 * page's origin) ends the restore as `no-session` with that error. A login or sign-in refused by the handler's
 * `loginThrottle` (429) is a {@link LoginThrottledError}, which carries the wait. `auth.signIn(name, variables)`
 * posts the door's name and variables to `{basePath}/sign-in`: the handler holds the documents
 * (`createTokenHandler({ signIns })`) and answers the access token (the refresh token goes into its cookie) or the
 * `next` step.
 *
 * @param basePath - The path (or URL) the handler serves, `/auth` by default on its side.
 *
 * @example
 * ```ts
 * const auth = createTokenAuth({ transport: createTokenHandlerTransport('/auth') });
 * ```
 */
export function createTokenHandlerTransport(
  basePath: string,
  options: TokenHandlerTransportOptions = {},
): TokenAuthTransport {
  const fetcher = options.fetch;
  const post = async (route: string, body: object, signal: AbortSignal): Promise<SignInAnswer> => {
    let response: Response;
    try {
      response = await (fetcher ?? fetch)(`${basePath}/${route}`, {
        method: 'POST',
        credentials: 'include',
        // The header the handler requires: a page of another origin cannot send it without a CORS preflight.
        headers: { 'content-type': 'application/json', 'x-token-handler': '1' },
        body: JSON.stringify(body),
        // A logout's answer clears the cookie even when the page is closing.
        keepalive: route === 'logout',
        signal,
      });
    } catch (cause) {
      const url = `${basePath}/${route}`;
      throw new AuthRequestError(
        `${route} failed on the network: ${unreachable(url, cause)}.`,
        route,
        undefined,
        cause,
      );
    }
    const { status } = response;
    const answer = (await response.json().catch(() => null)) as HandlerAnswer | null;
    const { code, message } = answer?.error ?? {};
    // No cookie: nobody signed in (answered 200). A cookie of a session logged out (in a tab whose answer was
    // lost): logged out.
    const ended = ({ NO_SESSION: 'no-session', SESSION_ENDED: 'logout' } as const)[code as string];
    if (ended) throw new SessionEndedError(ended);
    // A door's step that begins no session; otherwise the session checks the shape of a pair.
    if (response.ok && answer && 'next' in answer) return { next: answer.next };
    if (response.ok) return { ...answer, refreshToken: answer?.accessToken } as TransportAnswer;
    if (status === 401)
      throw new AuthRejectedError(rejectionMessage(route, message, status), route, [{ message, extensions: { code } }]);
    if (status === 429 && (route === 'login' || route === 'sign-in'))
      throw new LoginThrottledError(
        message ?? '',
        Number(answer?.error?.retryAfter) || Number(response.headers.get('retry-after')) * 1000 || 0,
      );
    const failed = new AuthRequestError(
      `${route} failed with HTTP ${status}${code ? ` (${code}): ${message}` : ''}`,
      route,
      status,
    );
    // The handler refuses this page (a misconfigured origin): no session can be had, and retrying will not help.
    if (status === 403 && route === 'refresh') throw new SessionEndedError('no-session', failed);
    throw failed;
  };
  return {
    ownsSession: true,
    // The handler answers concurrent refreshes of one cookie alike: its tabs need no lock.
    store: createCookieSessionStore(`apollo-link-token-pair ${basePath}`, { lock: false }),
    login: (email, password, signal) => post('login', { email, password }, signal) as Promise<TransportAnswer>,
    // The handler holds the documents and runs only its own doors: the page sends a name, never a document.
    signIn: (name, variables, signal) => post('sign-in', { name, variables }, signal),
    // The cookie carries the refresh token; the body names the access token this page wants replaced: the one its
    // operations carried when the API refused it (the session refreshes on TOKEN_EXPIRED only while that token is
    // still its own), or one near its end. The handler rotates only when it is the session's newest.
    refresh: (accessToken, signal) => post('refresh', { accessToken }, signal) as Promise<TransportAnswer>,
    logout: (_pair, signal) => post('logout', {}, signal),
  };
}
