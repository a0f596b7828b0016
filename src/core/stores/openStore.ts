import { AuthRequestError } from '../errors/AuthRequestError';
import { bounded } from '../environment/bounded';
import type { Clock } from '../environment/Clock';
import { isTokenPair } from '../tokens/readTokenPair';
import type { MaybePromise, TokenPair, TokenStore } from './TokenStore';

/** What a store seam needs from the session that opens it. */
export interface StoreHost {
  readonly clock: Clock;
  /** How long a store call may take, in ms. */
  readonly timeout: number;
  /** Failures nobody awaits. */
  report(error: unknown): void;
  /**
   * A session sharing the store stored `pair` (or emptied it; `reason` is `rejected` when it did so because the
   * service refused the pair): this session follows.
   */
  adopt(pair: TokenPair | null, reason?: 'rejected'): void;
}

/**
 * What a refresh came to: the pair now in use (`adopted` when another session sharing the store had rotated
 * already), or `null` when the store was emptied meanwhile (a logout elsewhere, or a refusal: `reason`). `orphan` is a pair the service
 * issued that nobody will use: the session revokes it.
 */
export interface Rotation {
  readonly pair: TokenPair | null;
  /** With `pair: null`: `rejected` when the store was emptied because the service refused the pair. */
  readonly reason?: 'rejected';
  readonly adopted?: boolean;
  readonly orphan?: TokenPair;
}

/** How a session reaches its store: the one seam between the engine and everything that shares a store. */
export interface StoreSeam {
  /** The stored pair, synchronously when the store answers so. Throws what the store threw. */
  load(): MaybePromise<TokenPair | null>;
  /**
   * Writes `pair`, or empties the store; failures go to `report`. Writes land in the order they were made, and
   * a pair is written only if `wanted()` still holds when its turn comes.
   */
  save(pair: TokenPair | null, wanted?: () => boolean): Promise<void>;
  /**
   * Renews `pair` with `renew`, unless the store shows that a session sharing it already has. The new pair is
   * stored only while `wanted()` holds.
   */
  rotate(pair: TokenPair, renew: (pair: TokenPair) => Promise<TokenPair>, wanted: () => boolean): Promise<Rotation>;
  /** Lets the store go. */
  close(): void;
}

const SHARED = Symbol.for('apollo-link-token-pair.shareTokenStore');

/** A store that {@link shareTokenStore} made shareable: it opens a seam per session. */
export interface SharedStoreInternals {
  readonly [SHARED]: (host: StoreHost) => StoreSeam;
}

/** Marks `store` as shareable, with `open` making each session's seam. */
export function markShared<T extends TokenStore>(store: T, open: (host: StoreHost) => StoreSeam): T & SharedStoreInternals {
  return Object.assign(store, { [SHARED]: open });
}

/** Whether `store` came from {@link shareTokenStore}. */
export function isShared(store: TokenStore): store is TokenStore & SharedStoreInternals {
  return SHARED in store;
}

// The session that owns each plain store: two would each spend the refresh token the other holds.
const owners = new WeakSet<TokenStore>();

/**
 * Opens the seam of the session that is created on `store`: the store's own when it is shared, else one that
 * owns it alone.
 *
 * @throws An `Error` naming `shareTokenStore` when a plain store already belongs to a live session.
 */
export function openStore(store: TokenStore, host: StoreHost): StoreSeam {
  if (isShared(store)) return store[SHARED](host);
  if (owners.has(store)) {
    throw new Error(
      'This store belongs to another session: share it through shareTokenStore(store), or dispose() that session first.',
    );
  }
  owners.add(store);
  const io = storeIO(store, host);
  return {
    load: io.read,
    save: io.write,
    async rotate(pair, renew, wanted) {
      let next: TokenPair;
      try {
        next = await renew(pair);
      } catch (error) {
        // A dead refresh token is not kept for the next start to submit again.
        if (!AuthRequestError.is(error) && wanted()) await io.write(null);
        throw error;
      }
      if (!wanted()) return { pair: null, orphan: next };
      await io.write(next);
      return { pair: next };
    },
    close: () => owners.delete(store),
  };
}

// Writes of each store, one at a time: an asynchronous store must not end with an older pair than the newest.
const queues = new WeakMap<TokenStore, Promise<unknown>>();

/** Bounded reads and serialized, bounded writes of `store`, for the session `host`. */
export function storeIO(store: TokenStore, host: StoreHost) {
  const call = <T>(work: () => MaybePromise<T>) =>
    bounded(host.clock, host.timeout, () => new AuthRequestError(`The token store did not answer within ${host.timeout} ms.`, 'store'), work);
  const read = (): MaybePromise<TokenPair | null> => {
    const settle = (value: unknown) => {
      if (isTokenPair(value)) return value;
      // Something that is not a pair (an old format, junk) is cleared rather than read again at every start.
      if (value != null) void write(null);
      return null;
    };
    const value = call(() => store.get());
    return value instanceof Promise ? value.then(settle) : settle(value);
  };
  /** Runs `task` after every write queued before it; later writes wait for it. */
  const queued = <T>(task: () => Promise<T>): Promise<T> => {
    const run = (queues.get(store) ?? Promise.resolve()).then(task);
    queues.set(store, run.catch(() => {}));
    return run;
  };
  /** Writes `pair` (or clears); resolves whether the store took it. */
  const put = async (pair: TokenPair | null): Promise<boolean> => {
    try {
      await call(() => (pair ? store.set(pair) : store.clear()));
      return true;
    } catch (error) {
      host.report(error);
      return false;
    }
  };
  /** Writes `pair` (or clears) when its turn comes, if `wanted()` still holds then. */
  const write = (pair: TokenPair | null, wanted?: () => boolean): Promise<void> =>
    queued(async () => void ((!wanted || wanted()) && (await put(pair))));
  return { read, write, queued, put };
}
