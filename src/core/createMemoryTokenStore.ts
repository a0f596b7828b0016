import type { TokenPair, TokenStore } from './TokenStore';

/**
 * Creates the default {@link TokenStore}: the pair lives in this process's memory only.
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
  return {
    get: () => pair,
    set: (next) => {
      pair = next;
    },
    clear: () => {
      pair = null;
    },
  };
}
