import { createListeners } from './createListeners';
import type { TokenPair, TokenStore } from './TokenStore';

/**
 * Creates the default {@link TokenStore}: the pair lives in this process's memory only.
 *
 * @remarks
 * It belongs to one session. For several sessions in one process, wrap it once with `shareTokenStore(store)`
 * and hand them the wrapped store: they then refresh under one lock and follow each other's changes.
 *
 * @param initial - A pair to start with, for example one loaded from secure storage.
 *
 * @example
 * ```ts
 * const auth = createTokenAuth({ uri, store: createMemoryTokenStore() });
 * ```
 */
export function createMemoryTokenStore(initial: TokenPair | null = null): TokenStore {
  let pair = initial;
  const { subscribe, notify } = createListeners();
  const write = (next: TokenPair | null) => {
    pair = next;
    notify();
  };
  return { get: () => pair, set: write, clear: () => write(null), subscribe };
}
