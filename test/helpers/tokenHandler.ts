import { createServer } from 'node:http';
import { expect } from 'vitest';
import type { AuthServer, AuthServerOptions } from '../../demo/server/createAuthServer';
import { createTokenHandler, type TokenHandler, type TokenHandlerOptions } from '../../src/server/createTokenHandler';
import { createCookieSealer } from '../../src/server/sealCookie';
import { toNodeHandler } from '../../src/server/toNodeHandler';
import { createTestAuthServer } from '../../src/testing';
import { listenLocally, startDemoServer } from './overHttp';
import { DOORS, NEWCOMER } from './signInDoors';

/** The secret of the handlers under test: 32 bytes and more. */
export const SECRET = 'a-test-secret-of-at-least-32-bytes-long';
/** The handler's default cookie name. */
export const COOKIE = '__Host-token-pair';

/** One answer of the handler, read whole. */
export interface HandlerAnswer {
  readonly status: number;
  readonly headers: Headers;
  readonly setCookie: string[];
  readonly text: string;
  readonly body: any;
}

/** What `post` sends besides the body. */
export interface PostOptions {
  /** The `Cookie` header as it is; `null` sends none. Default: the jar's, and the answer's cookies go to the jar. */
  cookie?: string | null;
  /** The `Origin` header; `null` sends none. @defaultValue the handler's own origin */
  origin?: string | null;
  /** Extra headers; a header set to `null` is not sent (`{ 'x-token-handler': null }`). */
  headers?: Record<string, string | null>;
  method?: string;
}

/** A browser's cookies: what `Set-Cookie` stored, sent back as `Cookie`. */
export interface CookieJar {
  /** The `Cookie` header, `undefined` when empty. */
  header(): string | undefined;
  /** The value of cookie `name`. */
  get(name?: string): string | undefined;
  set(name: string, value: string): void;
  /** Applies `Set-Cookie` values: `Max-Age=0` deletes. */
  store(setCookie: readonly string[]): void;
  clear(): void;
}

/** A token handler served by `node:http` in front of a demo upstream. */
export interface TokenHandlerRig {
  readonly upstream: AuthServer;
  readonly handler: TokenHandler;
  /** `http://127.0.0.1:PORT` of the handler. */
  readonly origin: string;
  readonly jar: CookieJar;
  /** Every answer `post` received, in order. */
  readonly answers: HandlerAnswer[];
  /** POSTs `body` to `{basePath}/{route}` with the handler's own origin and `x-token-handler: 1`. */
  post(route: string, body?: unknown, options?: PostOptions): Promise<HandlerAnswer>;
}

export interface TokenHandlerRigOptions {
  /** Options of the upstream demo server, when `upstream` is not given. */
  upstream?: AuthServerOptions | AuthServer;
  /** Options of the handler, over `{ uri, secret }`. */
  handler?: Partial<TokenHandlerOptions>;
}

export function createCookieJar(): CookieJar {
  const cookies = new Map<string, string>();
  return {
    header: () => (cookies.size ? [...cookies].map(([name, value]) => `${name}=${value}`).join('; ') : undefined),
    get: (name = COOKIE) => cookies.get(name),
    set: (name, value) => void cookies.set(name, value),
    store(setCookie) {
      for (const line of setCookie) {
        const { name, value, attributes } = parseSetCookie(line);
        if (attributes['max-age'] === '0') cookies.delete(name);
        else cookies.set(name, value);
      }
    },
    clear: () => cookies.clear(),
  };
}

/** Splits a `Set-Cookie` value into its name, value and lower-cased attributes (flags map to `''`). */
export function parseSetCookie(line: string): { name: string; value: string; attributes: Record<string, string> } {
  const [pair = '', ...rest] = line.split(';').map((part) => part.trim());
  const at = pair.indexOf('=');
  const attributes: Record<string, string> = {};
  for (const part of rest) {
    const eq = part.indexOf('=');
    attributes[(eq === -1 ? part : part.slice(0, eq)).toLowerCase()] = eq === -1 ? '' : part.slice(eq + 1);
  }
  return { name: pair.slice(0, at), value: pair.slice(at + 1), attributes };
}

/** What a sealed cookie holds: `r` refresh token, `a` access token, `e` end of the session in ms. */
export async function openCookie(
  setCookieOrValue: string,
  secret: string = SECRET,
): Promise<{ r: string; a: string; e: number } | undefined> {
  const value =
    setCookieOrValue.includes(';') || setCookieOrValue.startsWith(`${COOKIE}=`)
      ? parseSetCookie(setCookieOrValue).value
      : setCookieOrValue;
  return (await createCookieSealer(secret, `cookie:${COOKIE}`).open<{ r: string; a: string; e: number }>(value))?.value;
}

/** Serves `handler` with `node:http` on 127.0.0.1, closed by `cleanups`; resolves its origin. */
export async function serveHandler(cleanups: Array<() => unknown>, handler: TokenHandler): Promise<string> {
  return listenLocally(cleanups, createServer(toNodeHandler(handler)));
}

/** Sends one request to a served handler, as a page of `origin` would with `fetch`. */
export async function postTo(
  origin: string,
  path: string,
  body: unknown,
  options: PostOptions & { jar?: CookieJar } = {},
): Promise<HandlerAnswer> {
  const headers: Record<string, string> = { 'content-type': 'application/json', 'x-token-handler': '1' };
  const from = options.origin === undefined ? origin : options.origin;
  if (from !== null) headers['origin'] = from;
  const cookie = options.cookie === undefined ? options.jar?.header() : options.cookie;
  if (cookie != null) headers['cookie'] = cookie;
  for (const [name, value] of Object.entries(options.headers ?? {})) {
    if (value === null) delete headers[name];
    else headers[name] = value;
  }
  const method = options.method ?? 'POST';
  const response = await fetch(`${origin}${path}`, {
    method,
    headers,
    ...(method !== 'GET' &&
      method !== 'HEAD' &&
      method !== 'OPTIONS' && { body: body === undefined ? '' : JSON.stringify(body) }),
  });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const setCookie = response.headers.getSetCookie();
  if (options.cookie === undefined) options.jar?.store(setCookie);
  return { status: response.status, headers: response.headers, setCookie, text, body: parsed };
}

/** Starts a demo upstream (unless given) and a token handler over HTTP in front of it. */
export async function startTokenHandler(
  cleanups: Array<() => unknown>,
  options: TokenHandlerRigOptions = {},
): Promise<TokenHandlerRig> {
  const upstream =
    options.upstream && 'stats' in options.upstream
      ? options.upstream
      : await startDemoServer(cleanups, options.upstream ?? {});
  const handler = createTokenHandler({ uri: upstream.url, secret: SECRET, ...options.handler });
  const origin = await serveHandler(cleanups, handler);
  const jar = createCookieJar();
  const answers: HandlerAnswer[] = [];
  return {
    upstream,
    handler,
    origin,
    jar,
    answers,
    async post(route, body, postOptions = {}) {
      const answer = await postTo(origin, `${handler.basePath}/${route}`, body, { ...postOptions, jar });
      answers.push(answer);
      return answer;
    },
  };
}

/** Resolves once `condition()` holds, polling every 5 ms; rejects after `timeout` ms. */
export async function until(condition: () => boolean, timeout = 2000): Promise<void> {
  const end = Date.now() + timeout;
  while (!condition()) {
    if (Date.now() > end) throw new Error('until: the condition did not hold in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Calls the upstream's refreshToken directly: the code of its refusal, or `'OK'`. */
export async function refreshUpstream(upstream: AuthServer, token: string): Promise<string> {
  const response = await fetch(upstream.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      query: 'mutation($t:String!){refreshToken(token:$t){accessToken refreshToken}}',
      variables: { t: token },
    }),
  });
  const body = (await response.json()) as {
    data?: { refreshToken?: unknown };
    errors?: Array<{ extensions?: { code?: string } }>;
  };
  return body.data?.refreshToken ? 'OK' : (body.errors?.[0]?.extensions?.code ?? `HTTP ${response.status}`);
}

/**
 * A page's `fetch` of `origin` (through `fetcher`): it sends the jar's cookies and its `Origin`, keeps what
 * `Set-Cookie` sets, and records each answer's status and body in `answers` when given.
 */
export function pageFetch(
  jar: CookieJar,
  origin: string,
  fetcher: typeof fetch = fetch,
  answers?: unknown[],
): typeof fetch {
  return async (input, init) => {
    const headers = new Headers(init?.headers);
    headers.set('origin', origin);
    const cookie = jar.header();
    if (cookie) headers.set('cookie', cookie);
    const response = await fetcher(input, { ...init, headers });
    jar.store(response.headers.getSetCookie());
    answers?.push({ status: response.status, body: await response.clone().json() });
    return response;
  };
}

/**
 * A token handler holding every door of {@link DOORS} as its `signIns`, in front of the package's test server on
 * 127.0.0.1 (an ephemeral port) with the contract's 15-minute access tokens; `handler` adds options.
 */
export async function startDoorsHandler(
  cleanups: Array<() => unknown>,
  handler: Partial<TokenHandlerOptions> = {},
): Promise<TokenHandlerRig> {
  const upstream = createTestAuthServer({ accessTokenTtl: 900 });
  await upstream.listen(0, '127.0.0.1');
  cleanups.push(() => upstream.close());
  return startTokenHandler(cleanups, { upstream, handler: { signIns: DOORS, ...handler } });
}

/** Posts `{ name, variables }` to the rig's `/sign-in`, as the page's transport does. */
export const signIn = (rig: TokenHandlerRig, name: string, variables?: Record<string, unknown>) =>
  rig.post('sign-in', { name, variables });

/** Signs {@link NEWCOMER} up through the `register` door. */
export const register = (rig: TokenHandlerRig) => signIn(rig, 'register', { ...NEWCOMER });

/**
 * What reached the upstream: every counter of its stats that is not zero, the requests and each mutation's calls
 * (`{ requests: 1, registerCalls: 1 }`), to compare whole or with what it was before.
 */
export function upstreamCounts(upstream: AuthServer): Record<string, number> {
  const counters = Object.entries(upstream.stats).filter(([, value]) => typeof value === 'number' && value > 0);
  return Object.fromEntries(counters) as Record<string, number>;
}

/** No answer the page received, body or header other than Set-Cookie, carries a refresh token the service issued. */
export function expectNoRefreshTokenIn(rig: TokenHandlerRig): void {
  const issued = rig.upstream.stats.refreshTokensIssued;
  expect(issued.length).toBeGreaterThan(0);
  expect(rig.answers.length).toBeGreaterThan(0);
  for (const answer of rig.answers) {
    for (const token of issued) {
      expect(answer.text).not.toContain(token);
      for (const [name, value] of answer.headers) if (name !== 'set-cookie') expect(value).not.toContain(token);
    }
  }
}
