import { AuthRequestError } from '../errors/AuthRequestError';
import type { MaybePromise } from '../environment/MaybePromise';
import { storeReadError } from '../stores/storeReadError';
import type { TokenPair } from '../tokens/TokenPair';
import type { RestorerHost } from './RestorerHost';
import { LOADING, SIGNED_OUT } from './SessionRecord';
import { STORE_READS } from './sessionLimits';

/**
 * The read of the stored pair at start, and again while it fails. See {@link createRestorer}.
 */
export interface Restorer {
  /** The read on its way, if any: resolves once its pair is restored, rejects with the store's failure. */
  readonly reading: Promise<TokenPair | null> | null;
  /**
   * The read a token waits for: the one on its way, or, while the last read failed and attempts remain, a read
   * again now. `null` when there is nothing to wait for (read, or given up).
   */
  read(): Promise<TokenPair | null> | null;
  /** Stops reading (a login, a logout, dispose); resolves the read on its way, if any, never rejecting. */
  stop(): Promise<TokenPair | null> | undefined;
}

/**
 * Creates the {@link Restorer} of a session and starts the read at once: synchronously for a store that answers
 * so, and the session is then restored before `createTokenSession` returns.
 *
 * @remarks
 * A store that cannot be read (a Keychain locked until the first unlock after a reboot, a quota, an IndexedDB
 * upgrade) does not sign the user out: the session stays `loading` with the error, is read again on the retry
 * backoff, and at once by the next operation, `getAccessToken()`, `refresh()` or resume. Operations that meet the
 * failure fail with it, unsent. After {@link STORE_READS} failed reads the session shows `unauthenticated` with
 * the error, and the stored pair is left as it is for the next start.
 */
export function createRestorer(host: RestorerHost): Restorer {
  const { config, seam, state, reporter } = host;
  const { clock } = config;
  let reading: Promise<TokenPair | null> | null = null;
  // The last read's failure while attempts remain.
  let failed: { readonly error: AuthRequestError; readonly attempt: number } | undefined;
  let timer: unknown;
  let stopped = false;

  const apply = (pair: TokenPair | null) => {
    failed = undefined;
    if (!stopped && host.wanted()) host.restore(pair);
    return pair;
  };

  const fail = (cause: unknown): never => {
    const error = storeReadError(cause);
    reporter.report(error);
    if (stopped || !host.wanted()) throw error;
    const attempt = (failed?.attempt ?? 0) + 1;
    if (attempt >= STORE_READS) {
      failed = undefined;
      state.publish({ ...SIGNED_OUT, error });
      throw error;
    }
    failed = { error, attempt };
    state.publish({ ...LOADING, error });
    timer = clock.setTimeout(() => void again()?.catch(() => {}), config.retryDelay(attempt));
    throw error;
  };

  const settle = (value: Promise<TokenPair | null>) => {
    const run: Promise<TokenPair | null> = value.then(apply, fail).finally(() => {
      if (reading === run) reading = null;
    });
    reading = run;
    // A read nobody waits for (at start, on the backoff) reports its failure, and is not unhandled.
    run.catch(() => {});
    return run;
  };

  const again = () => {
    if (reading || !failed || stopped || !host.wanted() || host.signal.aborted) return reading;
    clock.clearTimeout(timer);
    return settle(Promise.resolve().then(() => seam.load()));
  };

  let first: MaybePromise<TokenPair | null>;
  try {
    first = seam.load();
  } catch (error) {
    first = Promise.reject(error);
  }
  if (first instanceof Promise) void settle(first);
  else apply(first);

  return {
    get reading() {
      return stopped ? null : reading;
    },
    read: () => (stopped ? null : again()),
    stop() {
      stopped = true;
      failed = undefined;
      clock.clearTimeout(timer);
      return reading?.catch(() => null);
    },
  };
}
