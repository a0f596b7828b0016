import { type CookieSession, fromCookieSession, type HandlerSession, toCookieSession } from './HandlerSession';
import { createCookieSealer, type Secrets } from './sealCookie';

/** Options of {@link createSessionCookie}. */
export interface SessionCookieOptions {
  readonly name: string;
  readonly secret: Secrets;
  readonly secure: boolean;
  readonly sameSite: 'Strict' | 'Lax';
  readonly now: () => number;
}

/** The session cookie of one request, opened. */
export type OpenedCookie =
  /** The cookie's value as sent (chunks joined), its session, and whether an older secret sealed it. */
  | { readonly value: string; readonly session: HandlerSession; readonly stale: boolean }
  /** A cookie that does not open: altered, sealed with a secret off the ring, sent twice, or too large. */
  | { readonly value: string; readonly session?: undefined };

/** The session cookie: sealed, and split in chunks when a large pair does not fit one browser cookie. */
export interface SessionCookie {
  /** The cookie's value as the request sent it (chunks joined): `undefined` without one, `''` when malformed. */
  value(headers: Headers): string | undefined;
  /** Opens the request's cookie: `null` without one. */
  open(headers: Headers): Promise<OpenedCookie | null>;
  /**
   * The `Set-Cookie` values that store `session`, clearing chunks of the request's cookie it no longer needs;
   * `undefined` when it does not fit in {@link MAX_CHUNKS} browser cookies.
   */
  write(session: HandlerSession, headers: Headers): Promise<string[] | undefined>;
  /** The `Set-Cookie` values that clear the cookie, and every chunk of it the request sent. */
  clear(headers: Headers): string[];
}

// Browsers keep a cookie whose name and value take at most 4,096 bytes, and drop a larger one without a word.
// The sealed value is ASCII (base64url), so characters are bytes.
const COOKIE_BYTES = 4096;
/** At most this many cookies hold one session: with the page's other cookies the header stays under the 16 kB a Node server reads. */
export const MAX_CHUNKS = 3;

/**
 * Creates the session cookie of a token handler. A session whose sealed value fits one cookie (name and value at
 * most 4,096 bytes) is `name`; a larger one (an access token that embeds permission sets) is split into
 * `name.0`, `name.1`…, at most {@link MAX_CHUNKS}, and joined again when read. A cookie sent twice, or chunks
 * that do not make a whole, open as nothing.
 */
export function createSessionCookie({ name, secret, secure, sameSite, now }: SessionCookieOptions): SessionCookie {
  const sealer = createCookieSealer(secret, `cookie:${name}`);
  // A `Set-Cookie` value: every cookie of the session has the same attributes, and a life in seconds.
  const setCookie = (cookie: string, value: string, maxAge: number) =>
    `${cookie}=${value}; Max-Age=${maxAge}; Path=/; HttpOnly; SameSite=${sameSite}${secure ? '; Secure' : ''}`;
  const cleared = (cookie: string) => setCookie(cookie, '', 0);
  const chunk = (index: number) => `${name}.${index}`;
  const chunkSize = COOKIE_BYTES - chunk(MAX_CHUNKS).length - 1;

  // The names and values of the request's cookies that belong to the session.
  function sent(headers: Headers): Array<[string, string]> {
    const pairs: Array<[string, string]> = [];
    for (const part of headers.get('cookie')?.split(';') ?? []) {
      // `name=value`, split at the first `=`: the rest is the value.
      const [head, ...value] = part.split('=');
      const key = head!.trim();
      if (key === name || key.startsWith(`${name}.`)) pairs.push([key, value.join('=').trim()]);
    }
    return pairs;
  }

  function value(headers: Headers): string | undefined {
    const pairs = sent(headers);
    if (!pairs.length) return undefined;
    const values = new Map(pairs);
    const whole = values.get(name);
    // Sent twice, or both whole and in chunks: nothing to choose between.
    if (values.size !== pairs.length || (whole !== undefined && values.size > 1)) return '';
    if (whole !== undefined) return whole.length + name.length > COOKIE_BYTES ? '' : whole;
    const parts: string[] = [];
    for (let index = 0; index < MAX_CHUNKS && values.has(chunk(index)); index++) parts.push(values.get(chunk(index))!);
    return parts.length === values.size && parts.every((part) => part.length <= chunkSize) ? parts.join('') : '';
  }

  return {
    value,
    async open(headers) {
      const text = value(headers);
      if (text === undefined) return null;
      const opened = await sealer.open<CookieSession>(text);
      if (!opened || typeof opened.value?.r !== 'string') return { value: text };
      return { value: text, session: fromCookieSession(opened.value), stale: opened.stale };
    },
    async write(session, headers) {
      const sealed = await sealer.seal(toCookieSession(session));
      const maxAge = Math.max(0, Math.floor((session.refreshExpiresAt - now()) / 1000));
      // The cookies that hold it, by name: one whole, or chunks.
      const parts = new Map<string, string>(
        name.length + 1 + sealed.length <= COOKIE_BYTES
          ? [[name, sealed]]
          : Array.from({ length: Math.ceil(sealed.length / chunkSize) }, (_, index) => [
              chunk(index),
              sealed.slice(index * chunkSize, (index + 1) * chunkSize),
            ]),
      );
      if (parts.size > MAX_CHUNKS) return undefined;
      return [
        ...Array.from(parts, ([key, part]) => setCookie(key, part, maxAge)),
        ...sent(headers)
          .filter(([key]) => !parts.has(key))
          .map(([key]) => cleared(key)),
      ];
    },
    clear(headers) {
      return [...new Set([name, ...sent(headers).map(([key]) => key)])].map(cleared);
    },
  };
}
