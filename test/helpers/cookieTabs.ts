import { createCookieSessionStore, type CookieSessionStoreOptions } from '../../src';
import { systemClock } from '../../src/core/environment/Clock';
import { openStore, type StoreHost } from '../../src/core/stores/openStore';
import type { TokenPair } from '../../src/core/tokens/TokenPair';

/**
 * A tab's cookie session store (`createCookieSessionStore(name, options)`), opened as its session opens it: the seam,
 * and every pair the store told the session to adopt. `cleanups` close it.
 */
export function openCookieTab(cleanups: Array<() => unknown>, name: string, options?: CookieSessionStoreOptions) {
  const adopted: Array<TokenPair | null> = [];
  const host: StoreHost = {
    clock: systemClock,
    timeout: 1000,
    report: () => {},
    adopt: (pair) => void adopted.push(pair),
    emit: () => {},
  };
  const seam = openStore(createCookieSessionStore(name, options), host);
  cleanups.push(() => seam.close());
  return { seam, adopted };
}
