import type { Clock } from '../environment/Clock';
import type { TokenAuthOptions } from './TokenAuthOptions';
import type { TokenSession } from './TokenSession';

/** What `createTokenAuth` knows of a `TokenAuth` that its public type does not show. */
export interface TokenAuthInternals {
  /** The engine behind it, with the members its links use (`current`, `recover`, `check`). */
  readonly session: TokenSession;
  /** The app's `isTokenExpiredError` option, for `./ws` to read a socket's errors as the link does. */
  readonly isTokenExpiredError: TokenAuthOptions['isTokenExpiredError'];
  /** The session's clock, for `./devtools` to count down by the time the session keeps. */
  readonly clock: Clock;
}

// Keyed by the `TokenAuth` the app holds (typed `object` here, a layer below it): nothing on it shows, and it is
// let go with it.
const registry = new WeakMap<object, TokenAuthInternals>();

/** Notes what `auth` is built from; `createTokenAuth` calls it once for each object it returns. */
export function setTokenAuthInternals(auth: object, internals: TokenAuthInternals): void {
  registry.set(auth, internals);
}

/**
 * The internals of a `TokenAuth` that `createTokenAuth` returned; `undefined` for any other object that
 * has its shape (a test's stand-in, the server stand-in of `BrowserTokenAuthProvider`).
 */
export function getTokenAuthInternals(auth: object): TokenAuthInternals | undefined {
  return registry.get(auth);
}
