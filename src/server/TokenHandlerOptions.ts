import type { GraphQLTransportOptions, SignInDocuments, TokenAuthTransport } from '../index';
import type { LoginThrottle } from './LoginThrottle';
import type { RotationCache } from './RotationCache';
import type { Secrets } from './sealCookie';

/** Options of {@link createTokenHandler}. */
export interface TokenHandlerOptions {
  /**
   * The upstream GraphQL service that serves `loginWithEmailPassword`, `refreshToken` and `logout`. Not set with
   * `upstream`.
   */
  uri?: string;
  /**
   * The upstream as a transport of your own, in place of `uri`'s GraphQL mutations: a REST auth server, another
   * protocol. The handler calls its `login`, `refresh` and `logout` (and `signIn`, the doors of `/sign-in`: its
   * `signIns` name them) where it would post the mutations, and keeps every rule of its own: the cookie, one
   * rotation per refresh token across requests and instances, `graceTime`, a refusal (`AuthRejectedError`) that
   * ends the session against any other error that keeps it, the `loginThrottle`.
   *
   * Its answers must carry a refresh token, which the cookie keeps: a login answered without one is refused (503
   * `NO_REFRESH_TOKEN`). A refresh answered without one keeps the cookie's (a server that does not rotate them,
   * RFC 6749 §6).
   *
   * A transport is called as it is. To send each call with the client's address (`X-Forwarded-For`, so that the
   * service's own throttling sees the user and not the handler), pass a function of the request's context that
   * returns the transport: it is called for each upstream call. `uri`, `documents`, `headers`, `fetch` and
   * `signIns` configure the GraphQL transport this replaces: beside it, each request answers 500 `MISCONFIGURED`
   * naming them.
   * @example
   * ```ts
   * // A REST auth server, through a transport of your own (docs/token-handler.md has one of a dozen lines).
   * declare function restTransport(url: string, forwardedFor?: string): TokenAuthTransport;
   * createTokenHandler({ secret, upstream: ({ forwardedFor }) => restTransport('https://auth.example.com', forwardedFor) });
   * ```
   */
  upstream?: TokenAuthTransport | ((context: UpstreamContext) => TokenAuthTransport);
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
  /**
   * Where the routes live: `{basePath}/login`, `/sign-in`, `/refresh` and `/logout`.
   * @defaultValue `'/auth'`
   */
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
  /** The `fetch` of upstream calls (not with `upstream`). @defaultValue `globalThis.fetch` */
  fetch?: typeof fetch;
  /** Extra headers of upstream calls (not with `upstream`). */
  headers?: Record<string, string>;
  /** Documents for an upstream whose mutations have other names (not with `upstream`): see `createGraphQLTransport`. */
  documents?: GraphQLTransportOptions['documents'];
  /**
   * The app's own sign-in mutations, by name, that the page's `auth.signIn(name, variables)` runs through
   * `{basePath}/sign-in`: sign-up, a one-time code, a second factor, a social ID token. They live here, on the
   * server, because the answer carries the refresh token, which the page must never see, and so that a page can
   * run these mutations and no others: it sends a name and variables, never a document. Each selects one top-level
   * field, as `signIns` of `createGraphQLTransport`: a pair (`accessToken`, `refreshToken`, optionally `user`)
   * begins the session as a login does; any other answer is handed to the page as the `next` step. A document that
   * selects no single top-level field throws here, naming the door. With `upstream`, the doors are that
   * transport's own (its `signIn` and `signIns`), and this is not set.
   * @example
   * ```ts
   * createTokenHandler({
   *   uri,
   *   secret,
   *   signIns: {
   *     register:
   *       'mutation ($email: String!, $password: String!) { register(email: $email, password: $password) { accessToken refreshToken user { id email role } } }',
   *     requestCode: 'mutation ($email: String!) { requestSignInCode(email: $email) { email expiresIn } }',
   *   },
   * });
   * ```
   */
  signIns?: SignInDocuments;
  /**
   * Slows down password guessing: asked before each login, and each sign-in through a door of `signIns`, is sent
   * upstream, it may refuse it (HTTP 429 with `Retry-After`). The recipe with rate-limiter-flexible on Redis is in
   * docs/token-handler.md.
   */
  loginThrottle?: LoginThrottle;
  /** Failures nobody awaits (a revocation that did not reach the upstream, a cache that failed). Never carries a token. */
  onError?: (error: Error) => void;
  /** The clock, in ms. @defaultValue `Date.now` */
  now?: () => number;
}

/** What a function given as {@link TokenHandlerOptions.upstream} is called with, for each upstream call. */
export interface UpstreamContext {
  /**
   * The client's address as `X-Forwarded-For` would carry it upstream: the trusted proxy's chain (with
   * `trustProxy`), then the peer's address as `toNodeHandler` knows it; `undefined` when unknown.
   */
  readonly forwardedFor: string | undefined;
  /**
   * The request the call is made for: a route's `Request`, or what the app handed `getServerSession` or `adopt`
   * (its headers at least).
   */
  readonly request: { readonly headers: Headers };
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
