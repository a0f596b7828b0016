import { createMemoryTokenStore } from './createMemoryTokenStore';
import { type StoreSeam, withSeam } from './openStore';
import type { TokenPair } from '../tokens/TokenPair';
import type { TokenStore } from './TokenStore';

/** A rotation's access token, told to the other tabs with when its answer was received (this browser's clock). */
interface TimedToken {
  readonly accessToken: string;
  readonly receivedAt?: number;
}

/** What a tab asks the Web Locks API for, as far as this store uses it. */
interface LockManagerLike {
  request<T>(name: string, task: () => Promise<T>): Promise<T>;
}

/**
 * The refresh token of the pair a cookie session starts from at a page load, which has no access token: the
 * session's first refresh, `transport.refresh(COOKIE_STAND_IN)`, asks the server whether its cookie holds a
 * session. A transport refused then is told of a first visit, not of a session that ended: it throws
 * `new SessionEndedError('no-session', refusal)`. Later refreshes are handed the access token, which stands in
 * for the refresh token the page never sees.
 */
export const COOKIE_STAND_IN = 'cookie';

const COOKIE: TokenPair = { accessToken: '', refreshToken: COOKIE_STAND_IN };

/** Options of {@link createCookieSessionStore}. */
export interface CookieSessionStoreOptions {
  /**
   * The tabs refresh one at a time, under a Web Lock named after the store: each presents the cookie as the last
   * refresh left it, and a tab that has heard of a newer token by its turn takes it instead of refreshing. A server
   * that rotates the refresh token in its cookie would take two tabs presenting one cookie at once for a reuse,
   * and end the session. Set
   * `false` only for a server that answers concurrent refreshes of one cookie alike (a token handler, which
   * `createTokenHandlerTransport` uses so). Where Web Locks do not exist (Node), the tabs are not coordinated.
   * @defaultValue `true`
   */
  lock?: boolean;
}

/**
 * Creates the store of a session whose server keeps the refresh token in an `HttpOnly` cookie of its own: the
 * page holds the access token only, in memory, and it stands in for the refresh token in the session's pair.
 * The tabs of the origin follow each other's login, logout and rotation through a `BroadcastChannel`. A page load
 * starts from the cookie: its first refresh asks the server whether there is a session (`loading` until it
 * knows).
 *
 * @remarks
 * `createRestTransport({ refreshTokenIn: 'cookie' })` and `createTokenHandlerTransport()` bring it; a transport
 * of your own for such a server returns it as its `store`, with `ownsSession: true`, and answers a refusal of
 * {@link COOKIE_STAND_IN} with a `SessionEndedError` of reason `no-session`.
 *
 * @param name - The `BroadcastChannel` (and Web Lock) name: sessions with the same name on one origin follow
 * each other. Give each server its own.
 * @defaultValue name: `'apollo-link-token-pair'`
 *
 * @example A transport of your own for a GraphQL server that keeps the refresh token in its cookie:
 * ```ts
 * import { AuthRejectedError, COOKIE_STAND_IN, createCookieSessionStore, createGraphQLTransport, SessionEndedError, type TokenAuthTransport } from 'apollo-link-token-pair';
 *
 * const graphql = createGraphQLTransport({
 *   uri: '/graphql',
 *   documents: { refresh: 'mutation { refreshToken: renewSession { accessToken } }' },
 * });
 * const transport: TokenAuthTransport = {
 *   ...graphql,
 *   ownsSession: true,
 *   store: createCookieSessionStore('my-app'),
 *   refresh: (token, signal) =>
 *     graphql.refresh(token, signal).catch((error: unknown) => {
 *       throw token === COOKIE_STAND_IN && AuthRejectedError.is(error) ? new SessionEndedError('no-session', error) : error;
 *     }),
 * };
 * ```
 */
export function createCookieSessionStore(
  name = 'apollo-link-token-pair',
  { lock = true }: CookieSessionStoreOptions = {},
): TokenStore {
  return withSeam(createMemoryTokenStore(), (host) => {
    // Whether this tab holds a session: only then does it follow another tab's rotation.
    let held = false;
    // The newest pair this tab holds, its own or one another tab told of: taken by a refresh whose turn at the lock
    // comes after it.
    let newest: TokenPair | undefined;
    const open = <T>(channelName: string, take: (data: T) => unknown) => {
      if (typeof BroadcastChannel !== 'function') return;
      const channel = new BroadcastChannel(channelName);
      channel.onmessage = ({ data }: MessageEvent<T>) => take(data);
      return channel;
    };
    const follow = (token: string | null, receivedAt?: number) => {
      held = !!token;
      newest = token ? { accessToken: token, refreshToken: token, receivedAt } : undefined;
      host.adopt(newest ?? null);
    };
    const channel = open(name, follow);
    // A rotation's token, on a channel of its own that a tab signed out (or of an earlier version) does not
    // follow: a tab whose operations carry the newest token names it when the API refuses it, so the handler
    // rotates once per refusal instead of handing a tab that lagged a pair the API refuses already. With the time
    // its answer was received: timed by its whole-second `exp`, the tabs that follow would renew it up to a second
    // early, the earliest of them setting the pace (a 10-second token renewed every 8 s, not 8.5 s). Tabs of an
    // earlier version tell theirs on the channel without the time, and follow none of these: they lag, and their
    // next refresh hands them the newest token without a rotation.
    const rotations = open<string | null>(`${name} rotations`, (token) => held && token && follow(token));
    const timed = open<TimedToken | null>(
      `${name} rotations, timed`,
      (data) => held && data && follow(data.accessToken, data.receivedAt),
    );
    const renew: StoreSeam['rotate'] = async (pair, exchange, wanted) => {
      const next = await exchange(pair);
      if (!wanted()) return { pair: null, orphan: next };
      held = true;
      newest = next;
      timed?.postMessage({ accessToken: next.accessToken, receivedAt: next.receivedAt } satisfies TimedToken);
      return { pair: next };
    };
    return {
      load: () => COOKIE,
      async save(pair, wanted) {
        if (wanted && !wanted()) return;
        held = !!pair;
        newest = pair ?? undefined;
        channel?.postMessage(pair?.accessToken ?? null);
      },
      rotate(pair, exchange, wanted) {
        const locks = lock ? (globalThis.navigator as { locks?: LockManagerLike } | undefined)?.locks : undefined;
        if (!locks) return renew(pair, exchange, wanted);
        return locks.request(`${name} refresh`, async () =>
          // Another tab renewed the session while this one waited: the cookie it renewed is this tab's too.
          held && newest && pair.accessToken && newest.accessToken !== pair.accessToken
            ? { pair: newest, adopted: true }
            : renew(pair, exchange, wanted),
        );
      },
      close: () => (channel?.close(), rotations?.close(), timed?.close()),
    };
  });
}
