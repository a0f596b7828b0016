import type { AuthCall } from './isRefusal';

import type { AnyVariables } from './SignInDocuments';

/** What a login request is made of: the arguments of `auth.login(email, password)`. */
export interface RestLoginInput {
  readonly email: string;
  readonly password: string;
}

/** What a refresh request is made of: the refresh token, `undefined` when the server keeps it in its cookie. */
export interface RestRefreshInput {
  readonly refreshToken: string | undefined;
}

/**
 * What a logout request is made of: the session's access token, and its refresh token (`undefined` when the
 * server keeps it in its cookie).
 */
export interface RestLogoutInput {
  readonly accessToken: string;
  readonly refreshToken: string | undefined;
}

/**
 * One endpoint of a REST auth server: its URL, and how a request to it is made when the defaults do not fit.
 *
 * @example A login that takes a username and a password:
 * ```ts
 * const login: RestEndpoint<RestLoginInput> = {
 *   url: '/api/auth/signin',
 *   body: ({ email, password }) => ({ username: email, password }),
 * };
 * ```
 */
export interface RestEndpoint<Input> {
  /** The endpoint's URL, or its path on the page's own origin. */
  readonly url: string;
  /**
   * The HTTP method. A `GET` sends no body.
   * @defaultValue `'POST'`
   */
  readonly method?: string;
  /**
   * The JSON body of the request, made from `input`; `undefined` sends none.
   * @defaultValue login: `{ email, password }`; refresh and logout: `{ [refreshTokenField]: refreshToken }` with
   * `refreshTokenIn: 'body'`, none otherwise
   */
  readonly body?: (input: Input) => unknown;
  /**
   * Headers of this endpoint's requests, made from `input`: they replace those the transport would set
   * (`Authorization`) and add to `headers`.
   * @defaultValue refresh: the refresh token in `refreshTokenHeader` with `refreshTokenIn: 'header'`; logout:
   * `Authorization: Bearer <access token>`
   */
  readonly headers?: (input: Input) => Record<string, string>;
}

/**
 * Where a login or refresh answer holds what the session needs: dotted paths into its JSON body (`'data.token'`
 * reads `{ data: { token } }`).
 */
export interface RestAnswerPaths {
  /**
   * The access token.
   * @defaultValue the first of `accessToken`, `access_token`, `token`, `data.accessToken`, `data.access_token`,
   * `data.token` that holds one
   */
  readonly accessToken?: string;
  /**
   * The refresh token. An answer without one keeps the session's (a server that does not rotate it). Never read
   * with `refreshTokenIn: 'cookie'`.
   * @defaultValue the first of `refreshToken`, `refresh_token`, `data.refreshToken`, `data.refresh_token`
   */
  readonly refreshToken?: string;
  /**
   * The user, as the login answer names it: the session reads `id`, `email` and `role` from it, or `readUser`
   * does.
   * @defaultValue the first of `user`, `data.user`
   */
  readonly user?: string;
}

/** An answer of the auth server, as {@link RestRefusalOptions.when} judges it. */
export interface RestAnswer {
  /** The call it answers: `login`, `refresh` or `logout`. */
  readonly call: AuthCall;
  /** Its HTTP status. */
  readonly status: number;
  /** Its JSON body when that is an object; `{}` for none, a body that is not JSON, an array or a scalar. */
  readonly body: Readonly<Record<string, unknown>>;
  /** The server's words, read at {@link RestRefusalOptions.message}. */
  readonly message: string | undefined;
}

/** How the transport tells a refusal (a verdict: wrong credentials, a refresh token revoked) from an outage. */
export interface RestRefusalOptions {
  /**
   * Statuses that are a refusal whatever the body says. Add `400` for a server that answers a missing or
   * malformed refresh token so.
   * @defaultValue `[401, 403]`
   */
  readonly statuses?: readonly number[];
  /**
   * Tells whether an answer is a refusal by what it says, whatever its status (a `200 { ok: false }`, a
   * `500 { error: 'Invalid refresh token' }`): `true`, `false`, or `'maybe'` (a refresh answered so is retried,
   * and the session ends when three attempts in a row are). Asked of every answer whose status is not in
   * `statuses`, a `200` included.
   * @defaultValue {@link isRestRefusal}
   * @example A server that says success false for a refusal, and nothing else:
   * ```ts
   * const transport = createRestTransport({
   *   login: '/api/login',
   *   refresh: '/api/refresh',
   *   refusal: { when: ({ body }) => body['success'] === false },
   * });
   * ```
   */
  readonly when?: (answer: RestAnswer) => boolean | 'maybe';
  /**
   * Where a refusal's body holds the server's words, shown as the `AuthRejectedError`'s `message` (a dotted path).
   * @defaultValue the first string of `message`, `error.message`, `error_description`, `detail`, `error`
   */
  readonly message?: string;
  /**
   * Where a refusal's body holds its code, the `AuthRejectedError`'s `code` (a dotted path).
   * @defaultValue the first of `code`, `error.code`
   */
  readonly code?: string;
}

/**
 * Options of {@link createRestTransport}: the endpoints, where the refresh token goes, where the answers hold the
 * tokens, and what a refusal looks like.
 */
export interface RestTransportOptions {
  /** The login endpoint: its URL, or an {@link RestEndpoint} for another method or body. */
  readonly login: string | RestEndpoint<RestLoginInput>;
  /** The refresh endpoint: its URL, or an {@link RestEndpoint} for another method or body. */
  readonly refresh: string | RestEndpoint<RestRefreshInput>;
  /**
   * The logout endpoint, which revokes the session on the server: its URL, or an {@link RestEndpoint}. Without
   * one, `auth.logout()` ends the session in the app only, and the refresh token lives until it expires.
   * Required with `refreshTokenIn: 'cookie'`: only the server can clear its `HttpOnly` cookie.
   */
  readonly logout?: string | RestEndpoint<RestLogoutInput>;
  /**
   * The app's own sign-in endpoints, by the name `auth.signIn(name, variables)` calls them: a sign-up, a code by
   * e-mail, a second factor. Each is a URL, posted `variables` as its JSON body, or an {@link RestEndpoint}. An
   * answer with an access token (at `answer`'s paths) begins the session as a login's does; any other is the next
   * step, `{ next }`: the answer's body as the server sent it.
   * @example
   * ```ts
   * const transport = createRestTransport({
   *   login: '/api/auth/login',
   *   refresh: '/api/auth/refresh',
   *   signIns: { register: '/api/auth/register', requestCode: '/api/auth/code' },
   * });
   * ```
   */
  readonly signIns?: Readonly<Record<string, string | RestEndpoint<AnyVariables>>>;
  /**
   * Where the refresh token goes: in the JSON body of the refresh (and logout) as `refreshTokenField`, in the
   * header `refreshTokenHeader`, or nowhere, because the server keeps it in an `HttpOnly` cookie of its own
   * (`'cookie'`: the page never sees it, requests go with `credentials: 'include'`, and the transport brings
   * {@link createCookieSessionStore}: a page load restores the session with one refresh).
   * @defaultValue `'body'`
   */
  readonly refreshTokenIn?: 'body' | 'header' | 'cookie';
  /**
   * The field of the JSON body that carries the refresh token, with `refreshTokenIn: 'body'`.
   * @defaultValue `'refreshToken'`
   */
  readonly refreshTokenField?: string;
  /**
   * The header that carries the refresh token, with `refreshTokenIn: 'header'`: `authorization` sends
   * `Bearer <refresh token>`, another header the token alone.
   * @defaultValue `'authorization'`
   */
  readonly refreshTokenHeader?: string;
  /** Where the answers hold the tokens and the user. */
  readonly answer?: RestAnswerPaths;
  /** What a refusal looks like. */
  readonly refusal?: RestRefusalOptions;
  /**
   * The `fetch` the calls are made with.
   * @defaultValue `globalThis.fetch`, read at call time
   */
  readonly fetch?: typeof fetch;
  /** Headers sent with every call. */
  readonly headers?: Record<string, string>;
  /**
   * The `credentials` of every call.
   * @defaultValue `'include'` with `refreshTokenIn: 'cookie'`, else `fetch`'s own (`'same-origin'`)
   */
  readonly credentials?: RequestCredentials;
}
