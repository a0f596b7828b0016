import type { TokenStorage } from './TokenStore';

/**
 * A new object that calls `storage`: a wrapper marks it, never the app's own object.
 * @internal
 */
export function delegateTo(storage: TokenStorage): TokenStorage {
  return {
    get: () => storage.get(),
    set: (pair) => storage.set(pair),
    clear: () => storage.clear(),
    ...(storage.subscribe && { subscribe: (listener: () => void) => storage.subscribe!(listener) }),
  };
}
