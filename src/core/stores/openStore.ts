import { AuthRequestError } from '../errors/AuthRequestError';
import type { Clock } from '../environment/Clock';
import type { MaybePromise } from '../environment/MaybePromise';
import type { TokenPair } from '../tokens/TokenPair';
import type { TokenStorage, TokenStore } from './TokenStore';

/** What a store seam needs from the session that opens it. */
export interface StoreHost {
  readonly clock: Clock;
  /** How long a store call may take, in ms. */
  readonly timeout: number;
  /** Failures nobody awaits. */
  report(error: unknown): void;
  /**
   * A session sharing the store stored `pair` (or emptied it; `reason` is `rejected` when it did so because the
   * service refused the pair): this session follows. Never called before the seam's `listen()`.
   */
  adopt(pair: TokenPair | null, reason?: 'rejected'): void;
  /** Tells the session's observers what the store did (a wait for its lock). */
  emit(event: LockEvent): void;
}

/** A refresh waited `ms` for the lock of a store shared with other tabs or processes. */
export interface LockEvent {
  readonly type: 'lock';
  readonly ms: number;
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
  /**
   * The stored pair, synchronously when the store answers so. A store that fails throws, rejects or times out:
   * the session reads it again (see `createRestorer`).
   */
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
  /**
   * Starts following the changes that sessions sharing the store make (`host.adopt`). The session calls it once
   * it exists: a storage may call back while it subscribes.
   */
  listen?(): void;
  /** Lets the store go. */
  close(): void;
  /**
   * Set when nothing the store holds outlives the session's process, nor is read by another session (the memory
   * store): a refresh on the wire is then not worth keeping the process alive for at `dispose()`.
   */
  readonly volatile?: boolean;
  /** How long a refresh may wait for the store's lock (a shared store's `lockTimeout`), in ms. */
  readonly lockWait?: number;
}

// Every store value carries how a session opens it: the seam of a store comes with the store an app imports,
// so a bundle holds only the seams of the stores it uses.
const OPEN = Symbol.for('apollo-link-token-pair.store');

/** Gives `store` the seam `open` makes for each session that opens it. */
export function withSeam<T extends TokenStorage>(store: T, open: (host: StoreHost) => StoreSeam): T & TokenStore {
  return Object.assign(store, { [OPEN]: open }) as unknown as T & TokenStore;
}

/**
 * Opens the seam of the session that is created on `store`.
 *
 * @throws An `Error` naming `createTokenStore` when `store` is none of this package's stores (localStorage, a
 * storage of the app's own not wrapped in `createTokenStore`).
 */
export function openStore(store: TokenStore, host: StoreHost): StoreSeam {
  const open = (store as unknown as { [OPEN]?: (host: StoreHost) => StoreSeam })[OPEN];
  if (!open) {
    // createTokenStore refuses localStorage with the spec's reason.
    throw new Error(
      '`store` takes a store of this package, such as createTokenStore(yourStorage), never localStorage.',
    );
  }
  return open(host);
}

/** The message of a store that a second live session opens. */
export const OWNED =
  'This store belongs to another session: share it through shareTokenStore(store), or dispose() that session first.';

/**
 * The rotation of a store one session owns: `write` stores the new pair while it is wanted, and empties the
 * store of a refresh token the service refused.
 */
export function rotateWith(write: (pair: TokenPair | null) => unknown): StoreSeam['rotate'] {
  return async (pair, renew, wanted) => {
    let next: TokenPair;
    try {
      next = await renew(pair);
    } catch (error) {
      // A dead refresh token is not kept for the next start to submit again.
      if (!AuthRequestError.is(error) && wanted()) await write(null);
      throw error;
    }
    if (!wanted()) return { pair: null, orphan: next };
    await write(next);
    return { pair: next };
  };
}
