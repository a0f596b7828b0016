import type { SignInDocuments } from '../index';
import { readSignInDocument, type SignInDoor } from '../internal';
import { processWide } from './processWide';
import { createMemoryRotationCache, type RotationCache } from './RotationCache';
import type { Secrets } from './sealCookie';
import type { SessionCookieOptions } from './sessionCookie';
import type { TokenHandlerOptions } from './TokenHandlerOptions';

// The options of the GraphQL transport that `upstream` replaces: beside it, each would go unused.
const GRAPHQL_OPTIONS = ['uri', 'documents', 'headers', 'fetch', 'signIns'] as const;

/**
 * The options of a token handler with every default applied: read once, when it is created. Those that have no
 * default (`uri`, not set with `upstream`; `fetch`, `headers`…) are as given.
 */
export interface HandlerConfig extends Readonly<
  Pick<TokenHandlerOptions, 'uri' | 'allowedOrigins' | 'origin' | 'fetch' | 'headers' | 'documents' | 'loginThrottle'>
> {
  /**
   * What the handler lacks to work (`uri`, `secret`), or has beside `upstream` that it would not use, in words for
   * the developer; `undefined` when nothing. Each request fails with it.
   */
  readonly misconfigured: string | undefined;
  /** `upstream`: the app's own transport (or a function of the request that makes it), in place of `uri`'s. */
  readonly transport: TokenHandlerOptions['upstream'];
  /** The secret, or 32 zero bytes when none was set (the handler is then misconfigured and serves nothing). */
  readonly secret: Secrets;
  readonly basePath: string;
  /** Whether a proxy the handler trusts sets `X-Forwarded-For`, `X-Forwarded-Host` and `X-Forwarded-Proto`. */
  readonly trustProxy: boolean;
  /** What `createSessionCookie` makes the session cookie of. */
  readonly sessionCookie: SessionCookieOptions;
  /** The refresh token's life, in ms: the cookie's `maxAge`. */
  readonly sessionLife: number;
  /** Where concurrent rotations meet, and refusals and logouts are kept. */
  readonly cache: RotationCache;
  /** How long a renewal's answer is kept for the requests that present the token it spent, in ms. */
  readonly graceTime: number;
  /** How long, at least, the cookie's access token must have to live to be handed out, in ms. */
  readonly minTokenLife: number;
  /** How long an upstream call may take, in ms. */
  readonly timeout: number;
  /** The sign-in doors of `signIns`, by name, each document read and checked once. */
  readonly signIns: ReadonlyMap<string, SignInDoor>;
  /** `onError`, made safe: it is always given an `Error`, and a logger that throws is ignored. */
  readonly report: (error: unknown) => void;
  readonly now: () => number;
}

/** Reads `options`, with the defaults each option's TSDoc states, and names what is missing. */
export function readHandlerOptions(options: TokenHandlerOptions): HandlerConfig {
  const {
    basePath = '/auth',
    // One process's handlers share one memory cache (a handler given its own clock, in tests, keeps its own).
    cache = options.now
      ? createMemoryRotationCache(options.now)
      : processWide('rotation-cache', createMemoryRotationCache),
    graceTime = 30_000,
    minTokenLife = 180_000,
    timeout = 10_000,
    now = Date.now,
  } = options;
  const { name, secure = true, sameSite = 'Strict', maxAge = 2_592_000 } = options.cookie ?? {};
  const secret = options.secret ?? new Uint8Array(32);
  return {
    ...options,
    misconfigured: readMisconfiguration(options),
    transport: options.upstream,
    secret,
    basePath,
    trustProxy: options.trustProxy ?? false,
    sessionCookie: {
      name: name ?? (secure ? '__Host-token-pair' : 'token-pair'),
      secret,
      secure,
      sameSite,
      now,
    },
    sessionLife: maxAge * 1000,
    cache,
    graceTime,
    minTokenLife,
    timeout,
    signIns: readSignIns(options.signIns),
    report: (error) => {
      try {
        options.onError?.(error instanceof Error ? error : new Error(String(error)));
      } catch {
        // The app's logger failed: nothing else to tell.
      }
    },
    now,
  };
}

// An option not set at all (an environment variable that a build does not have: `next build` loads the route
// modules) fails each request with a message, not the import; one of the wrong shape throws when the cookie is made.
// So does a GraphQL option beside `upstream`, which the handler would silently not use.
function readMisconfiguration(options: TokenHandlerOptions): string | undefined {
  const { upstream } = options;
  const required: ReadonlyArray<'uri' | 'secret'> = upstream ? ['secret'] : ['uri', 'secret'];
  const unset = required.filter((option) => options[option] === undefined);
  const beside = upstream ? GRAPHQL_OPTIONS.filter((option) => options[option] !== undefined) : [];
  const words = [
    unset.length &&
      `The token handler has no \`${unset.join('` and no `')}\`: set ${unset.map((option) => (option === 'uri' ? 'the upstream GraphQL URL (or `upstream`, a transport of your own)' : 'a secret of at least 32 bytes (`openssl rand -base64 32`)')).join(' and ')} in createTokenHandler.`,
    beside.length &&
      `The token handler calls its \`upstream\` transport, so \`${beside.join('`, `')}\` beside it would go unused: build them into that transport (its \`signIn\` and \`signIns\` are the doors a page's signIn runs), or remove \`upstream\`.`,
  ].filter(Boolean);
  return words.length ? words.join(' ') : undefined;
}

// A document of the wrong shape throws at once, as a secret of the wrong shape does: it is the app's code, not an
// environment variable a build may lack, and the same mistake in every environment.
function readSignIns(signIns: SignInDocuments = {}): ReadonlyMap<string, SignInDoor> {
  return new Map(
    Object.entries(signIns).map(([name, document]) => [name, readSignInDocument(name, document, 'signIns')]),
  );
}
