import type { MaybePromise } from '../environment/MaybePromise';
import type { TokenPair } from '../tokens/TokenPair';

/**
 * Where the token pair lives between requests and across restarts, as the app implements it: make a
 * {@link TokenStore} of it with `createTokenStore(storage)`.
 *
 * @remarks
 * Every method may answer synchronously or with a promise, so secure storage (Keychain, Expo SecureStore,
 * Electron `safeStorage`, a server's secret store) fits as it is. The spec forbids keeping the refresh token
 * in browser `localStorage` or in a plain file.
 */
export interface TokenStorage {
  /**
   * Reads the stored pair as `set` was given it, or `null` when there is none. Called when the session is
   * created; through `shareTokenStore`, also under the lock before each refresh and after the store signals a
   * change.
   */
  get(): MaybePromise<TokenPair | null | undefined>;
  /**
   * Replaces the stored pair. Keep the object as it is (as JSON, say): beside the pair's fields it carries the
   * `version` of its format, which tells a later version of the package how to read it.
   */
  set(pair: TokenPair): MaybePromise<void>;
  /** Forgets the stored pair. */
  clear(): MaybePromise<void>;
  /**
   * Calls `listener` when the stored pair may have changed, by this session or another one sharing the store
   * (another instance, another tab); returns the function that stops it. Optional, and read only through
   * `shareTokenStore`: sessions that share a store with it follow each other's logins, refreshes and logouts at
   * once, instead of at their next refresh.
   */
  subscribe?(listener: () => void): () => void;
}

// Named for the type error an app meets when it passes something else (`store: localStorage`): "missing the
// following properties from type 'TokenStore': [madeByCreateTokenStore], get, set".
declare const madeByCreateTokenStore: unique symbol;

/**
 * A store a session keeps its pair in: `createMemoryTokenStore()` (the default), `createBroadcastTokenStore()`,
 * `createSplitTokenStore()`, `shareTokenStore(storage)`, or `createTokenStore(storage)` for a storage of the
 * app's own. Each carries how a session opens it, so a bundle holds the code of the stores it imports only.
 */
export interface TokenStore extends TokenStorage {
  /** Brands the stores this package makes; an object of the app's own goes through `createTokenStore`. */
  readonly [madeByCreateTokenStore]: true;
}
