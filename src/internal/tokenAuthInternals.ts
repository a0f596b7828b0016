import type { TokenAuthOptions } from '../core/session/TokenAuthOptions';
import type { TokenSession } from '../core/session/TokenSession';
import type { TokenAuth } from '../createTokenAuth';

/** What `createTokenAuth` knows of a {@link TokenAuth} that its public type does not show. */
export interface TokenAuthInternals {
  /** The engine behind it, with the members its links use (`current`, `recover`, `check`). */
  readonly session: TokenSession;
  /** The app's `isTokenExpiredError` option, for `./ws` to read a socket's errors as the link does. */
  readonly isTokenExpiredError: TokenAuthOptions['isTokenExpiredError'];
}

// Keyed by the object the app holds: nothing on it shows, and it is let go with it.
const registry = new WeakMap<TokenAuth, TokenAuthInternals>();

/** Notes what `auth` is built from; `createTokenAuth` calls it once for each object it returns. */
export function setTokenAuthInternals(auth: TokenAuth, internals: TokenAuthInternals): void {
  registry.set(auth, internals);
}

/**
 * The internals of a {@link TokenAuth} that `createTokenAuth` returned; `undefined` for any other object that
 * has its shape (a test's stand-in, the server stand-in of `BrowserTokenAuthProvider`).
 */
export function getTokenAuthInternals(auth: TokenAuth): TokenAuthInternals | undefined {
  return registry.get(auth);
}
