import { assertNotLocalStorage } from './assertNotLocalStorage';
import { createListeners } from './createListeners';
import { createTokenStore } from './createTokenStore';
import type { MaybePromise } from '../environment/MaybePromise';
import type { TokenPair } from '../tokens/TokenPair';
import type { TokenStore } from './TokenStore';

/**
 * One secret slot in secure storage: React Native Keychain, Expo SecureStore, Electron `safeStorage` over a
 * file, a server's secret store. It holds the refresh token only.
 */
export interface SecretSlot {
  /** The stored secret, or `null`/`undefined` when there is none. */
  get(): MaybePromise<string | null | undefined>;
  /** Replaces the secret. */
  set(value: string): MaybePromise<void>;
  /** Removes the secret. */
  delete(): MaybePromise<void>;
}

/** The Web Storage shape (`getItem`/`setItem`/`removeItem`), accepted for convenience with a key. */
export interface WebStorageLike {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/** Options of {@link createSplitTokenStore}. */
export interface SplitTokenStoreOptions {
  /** The key under which a Web Storage-like object keeps the refresh token. @defaultValue `'refreshToken'` */
  key?: string;
  /**
   * Accept `window.localStorage` as the secret storage. The spec forbids it: any script on the page can read
   * it, and it outlives the session. Only for throwaway demos.
   * @defaultValue `false`
   */
  dangerouslyAllowLocalStorage?: boolean;
}

/**
 * Creates the {@link TokenStore} the spec describes: the access token in memory, the refresh token in secure
 * storage. After a restart the access token is gone, so the session refreshes first (and knows its role again
 * from the new token).
 *
 * @throws An `Error` when handed `window.localStorage`, unless `dangerouslyAllowLocalStorage` is set.
 *
 * @example Expo SecureStore:
 * ```ts
 * import * as SecureStore from 'expo-secure-store';
 *
 * const store = createSplitTokenStore({
 *   get: () => SecureStore.getItemAsync('refreshToken'),
 *   set: (value) => SecureStore.setItemAsync('refreshToken', value),
 *   delete: () => SecureStore.deleteItemAsync('refreshToken'),
 * });
 * ```
 */
export function createSplitTokenStore(
  secure: SecretSlot | WebStorageLike,
  options: SplitTokenStoreOptions = {},
): TokenStore {
  if (!options.dangerouslyAllowLocalStorage) {
    assertNotLocalStorage(
      secure,
      'createSplitTokenStore() must not keep the refresh token in localStorage: the spec forbids it, as every script of the page can read it. ' +
        'Pass secure storage (the platform keychain), or, for a throwaway demo only, { dangerouslyAllowLocalStorage: true }.',
    );
  }
  const slot = 'getItem' in secure ? fromWebStorage(secure, options.key ?? 'refreshToken') : secure;
  let memory: TokenPair | null = null;
  const { subscribe, notify } = createListeners();
  return createTokenStore({
    async get() {
      const refreshToken = await slot.get();
      if (!refreshToken) return null;
      return memory?.refreshToken === refreshToken ? memory : { accessToken: '', refreshToken };
    },
    async set(pair) {
      memory = pair;
      await slot.set(pair.refreshToken);
      notify();
    },
    async clear() {
      memory = null;
      await slot.delete();
      notify();
    },
    subscribe,
  });
}

function fromWebStorage(storage: WebStorageLike, key: string): SecretSlot {
  return {
    get: () => storage.getItem(key),
    set: (value) => storage.setItem(key, value),
    delete: () => storage.removeItem(key),
  };
}
