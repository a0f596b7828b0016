import { AuthRejectedError } from '../errors/AuthRejectedError';
import { AuthRequestError } from '../errors/AuthRequestError';
import { createLock, DEFAULT_LOCK_WAIT, type Lock } from '../environment/lock';
import { lockWithin } from '../environment/lockWithin';
import { rememberAtMost } from '../environment/rememberAtMost';
import { mayWrite } from './mayWrite';
import { type Rotation, withSeam } from './openStore';
import { delegateTo } from './delegateTo';
import { storeIO } from './storeIO';
import { storeReadError } from './storeReadError';
import { isSamePair } from '../tokens/readTokenPair';
import type { TokenPair } from '../tokens/TokenPair';
import type { TokenStorage, TokenStore } from './TokenStore';

/** Options of {@link shareTokenStore}. */
export interface ShareTokenStoreOptions {
  /**
   * Serializes the refreshes of the sessions that share the store.
   * @defaultValue Web Locks where they exist (every tab and worker of the origin), else a lock of this realm
   */
  lock?: Lock;
  /**
   * The lock's name. Stores of different users or services that share nothing may use different names.
   * @defaultValue `'apollo-link-token-pair'`
   */
  name?: string;
  /**
   * How long a session waits for the lock before its refresh fails with a transient `AuthRequestError`, in ms:
   * a holder that crashed or a frozen tab must not stall the others for good.
   * @defaultValue `20_000`
   */
  lockTimeout?: number;
}

declare const shared: unique symbol;

// Marks a store shareTokenStore made: sharing it again returns it as it is.
const SHARED = Symbol.for('apollo-link-token-pair.shareTokenStore');

/** A {@link TokenStore} that several sessions may share. See {@link shareTokenStore}. */
export type SharedTokenStore = TokenStore & { readonly [shared]: true };

/**
 * Makes `store` safe for several sessions at once: instances in one process, or tabs with
 * `createBroadcastTokenStore()`, which is shared already.
 *
 * @remarks
 * Refreshes run under one lock. Inside it the store is read again: a pair another session rotated meanwhile is
 * adopted instead of refreshed, an emptied store (a logout elsewhere) ends the session, and a store that cannot
 * be read fails the refresh rather than spend a token another session may have spent. The new pair is written
 * before the lock is released, only if the store still holds the pair that was renewed. Sessions follow each
 * other's logins, refreshes and logouts through `store.subscribe`.
 *
 * A plain store handed to a second live session throws, since the two would race.
 *
 * @example Two clients in one process on one session:
 * ```ts
 * const store = shareTokenStore(createMemoryTokenStore());
 * const a = createTokenAuth({ uri, store });
 * const b = createTokenAuth({ uri, store });
 * ```
 */
export function shareTokenStore(store: TokenStorage, options: ShareTokenStoreOptions = {}): SharedTokenStore {
  return shareWith(store, options, { refused: new Set() });
}

// How many refresh tokens the sessions of one store remember having spent (or seen refused), so that none is
// adopted again.
const SPENT_MEMORY = 16;

// How long a pair to be written (a login's) waits for the lock before it is written without it, in ms: the other
// tabs show a sign-in within this, whatever a tab holding the lock does.
const SAVE_WAIT = 1_000;

/**
 * Adds `token` to `tokens`, forgetting the oldest beyond the 16 a store remembers.
 * @internal
 */
export function remember(tokens: Set<string>, token: string): void {
  rememberAtMost(tokens, token, SPENT_MEMORY);
}

/**
 * What a store that reaches other realms (tabs) shares with them beyond the pair. @internal
 */
export interface Peers {
  /** The refresh tokens the service refused, here or in another realm. */
  readonly refused: Set<string>;
  /** Tells the other realms that the service refused `token`, before the store is emptied of it. */
  refuse?(token: string): void;
  /** Tells them that this realm submits `token` now, or (`null`) that its submission is over. */
  spend?(token: string | null): void;
  /** Whether another realm submitted `token` and let the lock go without saying how it ended. */
  lost?(token: string): boolean;
}

/**
 * {@link shareTokenStore}, with what the store shares with other realms: a session there that finds the store
 * emptied of a refused token ends as rejected, not as logged out elsewhere, and none submits a token that a
 * realm gone in mid-refresh (a tab reloaded) had submitted.
 * @internal
 */
export function shareWith(store: TokenStorage, options: ShareTokenStoreOptions, peers: Peers): SharedTokenStore {
  if (SHARED in store) return store as unknown as SharedTokenStore;
  const lock = options.lock ?? createLock();
  const name = options.name ?? 'apollo-link-token-pair';
  const lockTimeout = options.lockTimeout ?? DEFAULT_LOCK_WAIT;
  const { refused } = peers;
  const spent = new Set<string>();
  // The last write failed: the store may hold an older pair, or nothing, where a session holds a newer one.
  let unsaved = false;
  // A pair a session of this store submitted is taken from the store only while the store is known to be
  // current: after a failed write it may be a pair that was rotated already, and submitting it again is reuse.
  const stale = (token: string | null) => unsaved && spent.has(token!);
  // Another session renewed it: a new refresh token, or (a service that does not rotate) a new access token.
  const isNew = (stored: TokenPair, ours: TokenPair) => !isSamePair(stored, ours) && !stale(stored.refreshToken);

  return withSeam(Object.assign(delegateTo(store), { [SHARED]: true }), (host) => {
    const io = storeIO(store, host);
    // This session's writes under way: until they land, what the store holds is older than what it knows.
    let writing = 0;
    let missed = false;
    // The refresh token the store holds as far as this session knows (it wrote, read or followed it): a change
    // notice that shows nothing else is this session's own write.
    let known: TokenPair | null | undefined;
    const put = async (pair: TokenPair | null) => {
      known = pair;
      unsaved = !(await io.put(pair)) && pair !== null;
    };
    const read = async () => {
      try {
        return await io.read();
      } catch (cause) {
        throw storeReadError(cause);
      }
    };

    // Aborted by close(): the session was disposed, and stops waiting for the lock.
    const closing = new AbortController();
    // A refresh given up on fails. A write (`'run'`) then lands without the lock: a tab the browser froze while it
    // held the lock must not keep a sign-in from the other tabs, and a refresh that ends after it finds the write
    // in its compare-and-set.
    const locked = lockWithin(lock, name, host, closing.signal);

    // Not under the lock, so that a logout elsewhere is followed at once, not after a refresh that holds it.
    // Only the latest read counts, and while a failed write may have left the store stale, a pair spent by a
    // session of this store is not taken back.
    let reads = 0;
    const follow = async () => {
      const ticket = ++reads;
      try {
        const stored = await io.read();
        if (writing) missed = true;
        else if (ticket === reads && !isSamePair(stored, known) && !stale(stored?.refreshToken ?? null)) {
          const reason = known && refused.has(known.refreshToken) ? 'rejected' : undefined;
          known = stored;
          host.adopt(stored, reason);
        }
      } catch (error) {
        host.report(error);
      }
    };
    let unsubscribe: (() => void) | undefined;

    return {
      lockWait: lockTimeout,
      load() {
        // A pair followed while the store was read (a frozen tab's answer) is what the session holds: the read's
        // result is then not, and the next change must still be followed.
        const ticket = reads;
        const unspent = (stored: TokenPair | null) => {
          if (ticket === reads) known = stored;
          return stored && stale(stored.refreshToken) ? null : stored;
        };
        const stored = io.read();
        // No tab answered with a pair, but one may hold the lock: a tab the browser froze in mid-refresh cannot
        // answer until it thaws. Reading again once the lock is ours shows its new pair, not a sign-in form. A tab
        // that answers with an emptied store (a logout) ends the wait at once: the session follows that.
        const again = (found: TokenPair | null) =>
          found || !peers.spend
            ? found
            : locked(async () => io.read(), lockTimeout).catch((error: unknown) => (host.report(error), null));
        return stored instanceof Promise ? stored.then(again).then(unspent) : unspent(stored);
      },
      save(pair, wanted) {
        writing++;
        // A pair waits for the lock, so that it does not land inside another session's refresh, but at most
        // SAVE_WAIT; by then a logout may have emptied the store, and the pair is not written.
        const write = () => io.queued(async () => void ((!wanted || wanted()) && (await put(pair))));
        return (pair ? locked(write, Math.min(SAVE_WAIT, lockTimeout), 'run') : write())
          .catch(host.report)
          .finally(() => {
            if (--writing || !missed) return;
            missed = false;
            void follow();
          });
      },
      rotate: (pair, renew, wanted) =>
        locked(async (): Promise<Rotation> => {
          const stored = await read();
          if (stored === null && !unsaved)
            return { pair: null, reason: refused.has(pair.refreshToken) ? 'rejected' : undefined };
          if (stored && isNew(stored, pair)) return { pair: stored, adopted: true };
          // Its answer died with the realm that sent it: submitting it again is reuse, and the session is lost.
          if (peers.lost?.(pair.refreshToken)) return refuse(pair);
          remember(spent, pair.refreshToken);
          peers.spend?.(pair.refreshToken);
          try {
            let next: TokenPair;
            try {
              next = await renew(pair);
              // A service that does not rotate answered the same refresh token: it is not spent.
              if (next.refreshToken === pair.refreshToken) spent.delete(pair.refreshToken);
            } catch (error) {
              // Refused as reused: a session that shares the store but not this lock may have won. Its pair is good.
              const winner = AuthRejectedError.is(error) ? await read().catch(() => null) : null;
              if (winner && isNew(winner, pair)) return { pair: winner, adopted: true };
              // A dead token is taken out before the lock is released, so no session waiting for it submits it.
              if (!AuthRequestError.is(error)) await refuse(pair);
              throw error;
            }
            // A compare-and-set on the write queue: a logout or login elsewhere may have replaced the pair while
            // the request was out, and the new pair then belongs to nobody.
            return await io.queued(async () => {
              const now = await read().catch(() => undefined);
              if (mayWrite(now, pair, unsaved) && wanted()) {
                await put(next);
                return { pair: next };
              }
              await clearIfHolds(pair, now);
              return now && wanted() && isNew(now, pair)
                ? { pair: now, adopted: true, orphan: next }
                : { pair: null, orphan: next };
            });
          } finally {
            peers.spend?.(null);
          }
        }, lockTimeout),
      listen() {
        unsubscribe = store.subscribe?.(() => void follow());
      },
      close() {
        unsubscribe?.();
        closing.abort(new AuthRequestError('The session was disposed.', 'dispose'));
      },
    };

    async function refuse(pair: TokenPair): Promise<Rotation> {
      remember(refused, pair.refreshToken);
      peers.refuse?.(pair.refreshToken);
      await io.queued(() => clearIfHolds(pair));
      return { pair: null, reason: 'rejected' };
    }

    async function clearIfHolds(pair: TokenPair, now?: TokenPair | null) {
      const stored = now === undefined ? await read().catch(() => null) : now;
      if (stored?.refreshToken === pair.refreshToken) await put(null);
    }
  }) as unknown as SharedTokenStore;
}
