import { AuthRequestError } from '../errors/AuthRequestError';
import { bounded } from '../environment/bounded';
import { isTokenPair } from '../tokens/readTokenPair';
import type { StoreHost } from './openStore';
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
    queues.set(
      store,
      run.catch(() => {}),
    );
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
