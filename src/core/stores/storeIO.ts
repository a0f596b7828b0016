import { AuthRequestError } from '../errors/AuthRequestError';
import { bounded } from '../environment/bounded';
import type { StoreHost } from './openStore';
import { readStoredPair, toStoredPair } from './readStoredPair';
import type { MaybePromise } from '../environment/MaybePromise';
import type { TokenPair } from '../tokens/TokenPair';
import type { TokenStorage } from './TokenStore';

// Writes of each store, one at a time: an asynchronous store must not end with an older pair than the newest.
const queues = new WeakMap<TokenStorage, Promise<unknown>>();

/** Bounded reads and serialized, bounded writes of `store`, for the session `host`. */
export function storeIO(store: TokenStorage, host: StoreHost) {
  const call = <T>(work: () => MaybePromise<T>) =>
    bounded(work, {
      clock: host.clock,
      ms: host.timeout,
      timeout: () => new AuthRequestError(`The token store did not answer within ${host.timeout} ms.`, 'store'),
    });
  const read = (): MaybePromise<TokenPair | null> => {
    const settle = (value: unknown) => {
      const stored = readStoredPair(value);
      if ('pair' in stored) return stored.pair;
      // Perhaps a newer version's session (a rollback, a tab of the next release): it is left for that version.
      host.report(
        new AuthRequestError(
          `The stored session is in a format this version of apollo-link-token-pair does not know (${stored.unknown}): it was left in the store as it is, and this session is signed out (a sign-in here replaces it).`,
          'store',
        ),
      );
      return null;
    };
    const value = call(() => store.get());
    return value instanceof Promise ? value.then(settle) : settle(value);
  };
  /** Runs `task` after every write queued before it; later writes wait for it. */
  const queued = <T>(task: () => Promise<T>): Promise<T> => {
    const run = (queues.get(store) ?? Promise.resolve()).then(task);
    queues.set(
      store,
      run.catch(() => {}),
    );
    return run;
  };
  /** Writes `pair` (or clears); resolves whether the store took it. */
  const put = async (pair: TokenPair | null): Promise<boolean> => {
    try {
      await call(() => (pair ? store.set(toStoredPair(pair)) : store.clear()));
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
