import { AuthRejectedError } from '../errors/AuthRejectedError';
import { AuthRequestError } from '../errors/AuthRequestError';
import { createLock, type Lock } from '../environment/lock';
import { type Rotation, withSeam } from './openStore';
import { delegateTo } from './delegateTo';
import { storeIO } from './storeIO';
import type { TokenPair, TokenStorage, TokenStore } from './TokenStore';

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
   * @defaultValue `60_000`
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
  return shareWith(store, options, new Set());
}

// How many refresh tokens the sessions of one store remember having spent (or seen refused), so that none is
// adopted again.
const SPENT_MEMORY = 16;

/**
 * Adds `token` to `tokens`, forgetting the oldest beyond the 16 a store remembers.
 * @internal
 */
export function remember(tokens: Set<string>, token: string): void {
  tokens.add(token);
  if (tokens.size > SPENT_MEMORY) tokens.delete(tokens.values().next().value!);
}

/**
 * {@link shareTokenStore}, with the refresh tokens the service refused kept in `refused`, and `onRefused` told of
 * each: a store that reaches other realms (tabs) tells them, so that a session there that finds the store
 * emptied of a refused token ends as rejected, not as logged out elsewhere.
 * @internal
 */
export function shareWith(
  store: TokenStorage,
  options: ShareTokenStoreOptions,
  refused: Set<string>,
  onRefused?: (token: string) => void,
): SharedTokenStore {
  if (SHARED in store) return store as unknown as SharedTokenStore;
  const lock = options.lock ?? createLock();
  const name = options.name ?? 'apollo-link-token-pair';
  const lockTimeout = options.lockTimeout ?? 60_000;
  const spent = new Set<string>();
  // `refused`: a session that finds the store emptied of one of these ended as rejected too.
  // The last write failed: the store may hold an older pair, or nothing, where a session holds a newer one.
  let unsaved = false;
  // A pair a session of this store submitted is taken from the store only while the store is known to be
  // current: after a failed write it may be a pair that was rotated already, and submitting it again is reuse.
  const stale = (token: string | null) => unsaved && spent.has(token!);
  const isNew = (stored: TokenPair, ours: TokenPair) => stored.refreshToken !== ours.refreshToken && !stale(stored.refreshToken);

  return withSeam(Object.assign(delegateTo(store), { [SHARED]: true }), (host) => {
    const io = storeIO(store, host);
    const { clock } = host;
    // This session's writes under way: until they land, what the store holds is older than what it knows.
    let writing = 0;
    let missed = false;
    // The refresh token the store holds as far as this session knows (it wrote, read or followed it): a change
    // notice that shows nothing else is this session's own write.
    let known: string | null | undefined;
    const put = async (pair: TokenPair | null) => {
      known = pair?.refreshToken ?? null;
      unsaved = !(await io.put(pair)) && pair !== null;
    };
    const read = async () => {
      try {
        return await io.read();
      } catch (cause) {
        throw new AuthRequestError('The token store could not be read: no refresh was sent.', 'store', undefined, cause);
      }
    };

    // Aborted by close(): the session was disposed, and stops waiting for the lock.
    const closing = new AbortController();
    // Waits for the lock at most lockTimeout. A refresh granted later runs nothing and releases at once; a write
    // (`keep`) still lands then, if it is still wanted: only its caller stops waiting.
    const locked = <T>(task: () => Promise<T>, keep = false) =>
      new Promise<T>((resolve, reject) => {
        const controller = new AbortController();
        let started = false;
        const giveUp = (error: unknown) => {
          clock.clearTimeout(timer);
          closing.signal.removeEventListener('abort', onClose);
          if (started) return;
          if (!keep) controller.abort();
          reject(error);
        };
        const onClose = () => giveUp(new AuthRequestError('The session was disposed.', 'dispose'));
        const timer = clock.setTimeout(
          () => giveUp(new AuthRequestError(`Waited ${lockTimeout / 1000} s for the "${name}" lock, which another session holds.`, 'lock')),
          lockTimeout,
        );
        closing.signal.addEventListener('abort', onClose);
        lock(
          name,
          async () => {
            if (controller.signal.aborted) return;
            started = true;
            giveUp(undefined);
            await task().then(resolve, reject);
          },
          controller.signal,
        ).catch(giveUp);
      });

    // Not under the lock, so that a logout elsewhere is followed at once, not after a refresh that holds it.
    // Only the latest read counts, and while a failed write may have left the store stale, a pair spent by a
    // session of this store is not taken back.
    let reads = 0;
    const follow = async () => {
      const ticket = ++reads;
      try {
        const stored = await io.read();
        const token = stored?.refreshToken ?? null;
        if (writing) missed = true;
        else if (ticket === reads && token !== known && !stale(token)) {
          const reason = refused.has(known!) ? 'rejected' : undefined;
          known = token;
          host.adopt(stored, reason);
        }
      } catch (error) {
        host.report(error);
      }
    };
    const unsubscribe = store.subscribe?.(() => void follow());

    return {
      load() {
        const unspent = (stored: TokenPair | null) => {
          known = stored?.refreshToken ?? null;
          return stored && stale(stored.refreshToken) ? null : stored;
        };
        const stored = io.load();
        return stored instanceof Promise ? stored.then(unspent) : unspent(stored);
      },
      save(pair, wanted) {
        writing++;
        // A pair waits for the lock, so that it cannot land inside another session's refresh; by then a logout
        // may have emptied the store, and the pair is not written.
        const write = () => io.queued(async () => void ((!wanted || wanted()) && (await put(pair))));
        return (pair ? locked(write, true) : write()).catch(host.report).finally(() => {
          if (--writing || !missed) return;
          missed = false;
          void follow();
        });
      },
      rotate: (pair, renew, wanted) =>
        locked(async (): Promise<Rotation> => {
          const stored = await read();
          if (stored === null && !unsaved) return { pair: null, reason: refused.has(pair.refreshToken) ? 'rejected' : undefined };
          if (stored && isNew(stored, pair)) return { pair: stored, adopted: true };
          remember(spent, pair.refreshToken);
          let next: TokenPair;
          try {
            next = await renew(pair);
          } catch (error) {
            // Refused as reused: a session that shares the store but not this lock may have won. Its pair is good.
            const winner = AuthRejectedError.is(error) ? await read().catch(() => null) : null;
            if (winner && isNew(winner, pair)) return { pair: winner, adopted: true };
            // A dead token is taken out before the lock is released, so no session waiting for it submits it.
            if (!AuthRequestError.is(error)) {
              remember(refused, pair.refreshToken);
              onRefused?.(pair.refreshToken);
              await io.queued(() => clearIfHolds(pair));
            }
            throw error;
          }
          // A compare-and-set on the write queue: a logout or login elsewhere may have replaced the pair while
          // the request was out, and the new pair then belongs to nobody.
          return io.queued(async () => {
            const now = await read().catch(() => undefined);
            const ours = now === undefined || now?.refreshToken === pair.refreshToken || (now === null && unsaved);
            if (ours && wanted()) {
              await put(next);
              return { pair: next };
            }
            await clearIfHolds(pair, now);
            return now && wanted() && isNew(now, pair) ? { pair: now, adopted: true, orphan: next } : { pair: null, orphan: next };
          });
        }),
      close() {
        unsubscribe?.();
        closing.abort();
      },
    };

    async function clearIfHolds(pair: TokenPair, now?: TokenPair | null) {
      const stored = now === undefined ? await read().catch(() => null) : now;
      if (stored?.refreshToken === pair.refreshToken) await put(null);
    }
  }) as unknown as SharedTokenStore;
}
