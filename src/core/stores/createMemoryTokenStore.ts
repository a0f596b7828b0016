import { isTokenPair } from '../tokens/readTokenPair';
import { createListeners } from './createListeners';
import { OWNED, rotateWith, withSeam } from './openStore';
import type { TokenPair } from '../tokens/TokenPair';
import type { TokenStore } from './TokenStore';

/**
 * Creates the default {@link TokenStore}: the pair lives in this process's memory only.
 *
 * @remarks
 * The default of `createTokenAuth`. It belongs to one session, which reads and writes it synchronously. For
 * several sessions in one process, wrap it once with `shareTokenStore(store)` and hand them the wrapped store:
 * they then refresh under one lock and follow each other's changes.
 *
 * @param initial - A pair to start with, for example one loaded from secure storage.
 *
 * @example
 * ```ts
 * const auth = createTokenAuth({ uri, store: createMemoryTokenStore() });
 * ```
 */
export function createMemoryTokenStore(initial: TokenPair | null = null): TokenStore {
  let pair = isTokenPair(initial) ? initial : null;
  let owned = false;
  const { subscribe, notify } = createListeners();
  const write = (next: TokenPair | null) => {
    pair = next;
    notify();
  };
  return withSeam({ get: () => pair, set: write, clear: () => write(null), subscribe }, (host) => {
    if (owned) throw new Error(OWNED);
    owned = true;
    // Memory answers at once: no time limit, and writes land in the order they are made.
    const put = (next: TokenPair | null) => {
      try {
        write(next);
      } catch (error) {
        // A listener of the app's own threw.
        host.report(error);
      }
    };
    return {
      load: () => pair,
      save: async (next, wanted) => void ((!wanted || wanted()) && put(next)),
      rotate: rotateWith(put),
      close: () => (owned = false),
      volatile: true,
    };
  });
}
