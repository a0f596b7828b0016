import { AuthRejectedError, rejectionMessage } from '../errors/AuthRejectedError';
import { AuthRequestError } from '../errors/AuthRequestError';
import { SessionEndedError } from '../errors/SessionEndedError';
import { COOKIE_STAND_IN, createCookieSessionStore } from '../stores/createCookieSessionStore';
import type { AuthCall } from './isRefusal';
import { readAt } from './readAt';
import { type RestCall, readRestOptions } from './readRestOptions';
import type { RestTransportOptions } from './RestTransportOptions';
import type { TokenAuthTransport, TransportAnswer } from './TokenAuthTransport';
import { unreachable } from './unreachable';

/** An answer as it came: its status, and its body parsed (`json`, when it is JSON). */
interface Received {
  readonly call: AuthCall;
  readonly status: number;
  readonly ok: boolean;
  readonly json?: unknown;
  /** Whether the body is JSON. */
  readonly parsed: boolean;
}

const isText = (found: unknown) => typeof found === 'string' && found !== '';
const isCode = (found: unknown) => isText(found) || typeof found === 'number';
/** A login or a refresh, as sent. */
interface Exchange<Input> {
  readonly call: 'login' | 'refresh';
  readonly endpoint: RestCall<Input>;
  readonly input: Input;
  /** A page load's refresh in cookie mode: it asks whether the cookie holds a session. */
  readonly standIn?: boolean;
}

const asObject = (json: unknown) =>
  json !== null && typeof json === 'object' && !Array.isArray(json) ? (json as Record<string, unknown>) : {};

/**
 * A {@link TokenAuthTransport} for a REST auth server, configured rather than written: login, refresh and
 * logout endpoints, the refresh token in the JSON body, in a header or in the server's own `HttpOnly` cookie,
 * answers wrapped as the server wraps them, and refusals read where the server puts them.
 *
 * @remarks
 * Each answer is judged in this order:
 * - a status of `refusal.statuses` (401, 403), or an answer `refusal.when` calls a refusal ({@link isRestRefusal}:
 *   `200 { ok: false }`, `500 { error: 'Invalid refresh token' }` …), is an {@link AuthRejectedError} in the
 *   server's words (`refusal.message`) with its code (`refusal.code`): a refresh refused so ends the session, once;
 * - anything else without a verdict (the network, a `5xx`, `408`, `429`, a body that is not JSON) is an
 *   {@link AuthRequestError}: the session is kept, and the refresh retried;
 * - a `2xx` is read at `answer`'s paths. One without an access token is an `AuthRequestError` at login that names
 *   `answer.accessToken`, and ends the session at a refresh (the server has spent the token, or will answer so
 *   again).
 *
 * With `refreshTokenIn: 'cookie'` the page never sees the refresh token: the calls go with
 * `credentials: 'include'`, the answers are read for the access token and the user only, and the transport brings
 * {@link createCookieSessionStore}. A page load restores the session with one refresh; a refusal of that refresh
 * (no cookie, a cookie the server does not know) is a first visit (`no-session`), not a session that ended.
 *
 * @example The refresh token in the JSON body, the answers in data, refusals as 500 with an error:
 * ```ts
 * const auth = createTokenAuth({
 *   transport: createRestTransport({
 *     login: '/api/auth/login',
 *     refresh: '/api/auth/refresh',
 *     logout: '/api/auth/logout',
 *     answer: { accessToken: 'data.accessToken', refreshToken: 'data.refreshToken', user: 'data.user' },
 *   }),
 * });
 * ```
 *
 * @example The refresh token in the server's HttpOnly cookie, 400 when there is none:
 * ```ts
 * const auth = createTokenAuth({
 *   transport: createRestTransport({
 *     login: 'https://api.example.com/auth/login',
 *     refresh: 'https://api.example.com/auth/refresh',
 *     logout: 'https://api.example.com/auth/logout',
 *     refreshTokenIn: 'cookie',
 *     refusal: { statuses: [400, 401, 403] },
 *   }),
 * });
 * ```
 */
export function createRestTransport(options: RestTransportOptions): TokenAuthTransport {
  const config = readRestOptions(options);
  const { cookie, paths } = config;

  const send = async <Input>(call: AuthCall, endpoint: RestCall<Input>, input: Input, signal: AbortSignal) => {
    const body = /^get$/i.test(endpoint.method) ? undefined : endpoint.body(input);
    try {
      const response = await (config.fetch ?? fetch)(endpoint.url, {
        method: endpoint.method,
        headers: {
          accept: 'application/json',
          ...(body !== undefined && { 'content-type': 'application/json' }),
          ...config.headers,
          ...endpoint.headers(input),
        },
        ...(body !== undefined && { body: JSON.stringify(body) }),
        ...(config.credentials && { credentials: config.credentials }),
        // A logout's answer clears the server's cookie even when the page is closing.
        keepalive: call === 'logout',
        signal,
      });
      const text = await response.text();
      const { status, ok } = response;
      try {
        return { call, status, ok, json: JSON.parse(text) as unknown, parsed: true } satisfies Received;
      } catch {
        return { call, status, ok, parsed: false } satisfies Received;
      }
    } catch (cause) {
      const why = unreachable(endpoint.url, cause);
      throw new AuthRequestError(`${call} failed on the network: ${why}.`, call, undefined, cause);
    }
  };

  // Throws the refusal or the outage an answer is, the refusal of a page load's refresh as a first visit.
  const judge = ({ call, status, ok, json, parsed }: Received, standIn = false): void => {
    const body = asObject(json);
    const message = readAt(body, paths.message, isText) as string | undefined;
    const verdict = config.statuses.includes(status) || config.when({ call, status, body, message });
    if (verdict) {
      const code = readAt(body, paths.code, isCode) as string | number | undefined;
      const errors = [{ message, extensions: { code: code === undefined ? code : `${code}` } }];
      const said = rejectionMessage(call, message, status);
      const refusal = new AuthRejectedError(said, call, errors, { uncertain: verdict === 'maybe' });
      throw standIn ? new SessionEndedError('no-session', refusal) : refusal;
    }
    if (!ok) {
      throw new AuthRequestError(`${call} failed with HTTP ${status}${message ? ` (${message})` : ''}.`, call, status);
    }
    if (!parsed && call !== 'logout') {
      throw new AuthRequestError(`${call} answered HTTP ${status} with a body that is not JSON.`, call, status);
    }
  };

  // A login's, refresh's or door's answer: the access token and the user, and the refresh token unless the cookie
  // keeps it.
  const pairOf = ({ call, json, status }: Received, standIn = false): TransportAnswer => {
    const accessToken = readAt(json, paths.accessToken, isText);
    const refreshToken = cookie ? undefined : readAt(json, paths.refreshToken, isText);
    const missing = (what: string, option: 'accessToken' | 'refreshToken', more = '') =>
      new AuthRequestError(
        `${call} answered HTTP ${status} without ${what} at ${paths[option].join(', ')}: set answer.${option} ` +
          `to the dotted path where your server puts it${more}.`,
        call,
        status,
      );
    if (!accessToken) {
      const error = missing('an access token', 'accessToken');
      if (call === 'login') throw error;
      // Asked at a page load, the server answered that nobody is signed in; mid-session, it spent the token.
      throw new SessionEndedError(standIn ? 'no-session' : 'rejected', error);
    }
    if (call === 'login' && !cookie && !refreshToken) {
      throw missing(
        'a refresh token',
        'refreshToken',
        ", or refreshTokenIn: 'cookie' if it keeps it in a cookie of its own",
      );
    }
    const user = readAt(json, paths.user);
    return { accessToken, refreshToken, ...(user !== undefined && { user }) };
  };

  const exchange = async <Input>({ call, endpoint, input, standIn }: Exchange<Input>, signal: AbortSignal) => {
    const received = await send(call, endpoint, input, signal);
    judge(received, standIn);
    return pairOf(received, standIn);
  };

  return {
    ...(cookie && {
      ownsSession: true,
      store: createCookieSessionStore(`apollo-link-token-pair ${config.refresh.url}`),
    }),
    login: (email, password, signal) =>
      exchange({ call: 'login', endpoint: config.login, input: { email, password } }, signal),
    signIns: [...config.signIns.keys()],
    async signIn(name, variables, signal) {
      const received = await send('login', config.signIns.get(name)!, variables, signal);
      judge(received);
      // Without an access token, the answer is the door's next step (a code was sent, a second factor is asked for).
      return readAt(received.json, paths.accessToken, isText) ? pairOf(received) : { next: received.json };
    },
    refresh: (token, signal) =>
      exchange(
        {
          call: 'refresh',
          endpoint: config.refresh,
          input: { refreshToken: cookie ? undefined : token },
          standIn: cookie && token === COOKIE_STAND_IN,
        },
        signal,
      ),
    async logout({ accessToken, refreshToken }, signal) {
      if (!config.logout) return undefined;
      const input = { accessToken, refreshToken: cookie ? undefined : refreshToken };
      const received = await send('logout', config.logout, input, signal);
      judge(received);
      return received.json;
    },
  };
}
