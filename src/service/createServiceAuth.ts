import { ApolloLink } from '@apollo/client';
import { Observable, type Subscription } from 'rxjs';
import {
  AuthRejectedError,
  AuthRequestError,
  createTokenAuth,
  getRetryDelay,
  type MaybePromise,
  SessionEndedError,
  systemClock,
  type TokenAuth,
  type TokenAuthOptions,
  type TokenUser,
} from '../index';

const CREDENTIALS_RETRY_DELAY = 30_000;

/** The account a server-side integration logs in with. */
export interface ServiceCredentials {
  readonly email: string;
  readonly password: string;
}

/** Options of {@link createServiceAuth}. */
export interface ServiceAuthOptions extends TokenAuthOptions {
  /**
   * Where the credentials come from, asked at every login so a rotated password is picked up. Keep them out
   * of code: environment variables or a secret manager.
   */
  credentials: () => MaybePromise<ServiceCredentials>;
}

/** A {@link TokenAuth} that logs itself in, and in again. See {@link createServiceAuth}. */
export interface ServiceAuth extends TokenAuth {
  /** Logs in now, so bad credentials fail at start-up rather than at the first operation. */
  start(): Promise<{ user: TokenUser }>;
}

/**
 * A session for a server-side integration: it logs in from the credentials it is given, refreshes
 * proactively, and logs in again by itself when the refresh token has expired or been revoked (the spec: after
 * the refresh token expires, log in again). Operations wait for that login and run once more if the session
 * ended under them.
 *
 * @remarks
 * Credentials the service rejects are not tried again for 30 s, and a login that got no answer (an outage) is
 * retried after the session's `retryDelay` (full jitter by default): operations fail with that failure
 * meanwhile instead of sending logins of their own.
 * The spec recommends a dedicated user with a custom role limited to the minimum required permissions for
 * integrations, not the owner's account. Nothing here logs credentials or tokens; failures that nobody awaits
 * go to `onError`. Each worker process keeps its own session: pass a shared `store` and `lock` (a Redis or
 * file lock) only if workers must share one.
 *
 * @example
 * ```ts
 * import { ApolloClient, ApolloLink, HttpLink, InMemoryCache } from '@apollo/client';
 *
 * const auth = createServiceAuth({
 *   uri,
 *   credentials: () => ({ email: process.env.API_EMAIL!, password: process.env.API_PASSWORD! }),
 * });
 * await auth.start();
 * const client = new ApolloClient({ link: ApolloLink.from([auth.link, new HttpLink({ uri })]), cache: new InMemoryCache() });
 * ```
 */
export function createServiceAuth(options: ServiceAuthOptions): ServiceAuth {
  const now = () => (options.clock ?? Date).now();
  let signingIn: Promise<{ user: TokenUser }> | null = null;
  let refused: { readonly error: unknown; readonly until: number } | null = null;
  let failures = 0;
  let disposed = false;

  // Credentials the service refused are not tried again for a while: every operation would otherwise send a
  // login, and the account would soon be rate limited or locked.
  const signIn = () =>
    (signingIn ??= (async () => {
      if (refused && now() < refused.until) throw refused.error;
      try {
        // App code: bounded like every wait on what the app supplies, and a failure backs off like a login's.
        const clock = options.clock ?? systemClock;
        let timer: unknown;
        const { email, password } = await Promise.race([
          options.credentials(),
          new Promise<never>((_, reject) => {
            timer = clock.setTimeout(
              () => reject(new AuthRequestError('credentials() did not answer in time.', 'loginWithEmailPassword')),
              options.refreshTimeout ?? 30_000,
            );
          }),
        ]).finally(() => clock.clearTimeout(timer));
        const result = await auth.login(email, password);
        failures = 0;
        return result;
      } catch (error) {
        const { retryDelay = getRetryDelay } = options;
        const wait = AuthRejectedError.is(error)
          ? CREDENTIALS_RETRY_DELAY
          : typeof retryDelay === 'number'
            ? retryDelay
            : retryDelay(++failures);
        refused = { error, until: now() + wait };
        throw error;
      }
    })().finally(() => {
      signingIn = null;
    }));

  const auth = createTokenAuth({
    ...options,
    onSessionEnd(event) {
      try {
        options.onSessionEnd?.(event);
      } finally {
        if (event.reason === 'rejected' && !disposed) signIn().catch((error: unknown) => options.onError?.(error));
      }
    },
  });

  // Waits for a login in progress (or starts one when signed out), and runs an operation once more when the
  // session ended under it: the login that follows gives it a new token.
  const relogin = new ApolloLink(
    (operation, forward) =>
      new Observable((observer) => {
        let closed = false;
        let retried = false;
        let sub: Subscription | undefined;
        const run = () => {
          if (!signingIn && auth.getState().status === 'authenticated') return subscribe();
          // Still loading, signed out, or signing in: wait for a token, and sign in when there is none.
          const ready = signingIn ?? auth.getAccessToken().then((token) => (token === null ? signIn() : undefined));
          ready.then(subscribe, (error: unknown) => {
            if (!closed) observer.error(error);
          });
        };
        const subscribe = () => {
          if (closed) return;
          sub = forward(operation).subscribe({
            next: (result) => observer.next(result),
            complete: () => observer.complete(),
            error(error: unknown) {
              // Only a session the service ended is signed in again: a logout is final, and a login as another
              // account is the app's own doing.
              if (
                !retried &&
                SessionEndedError.is(error) &&
                (error.reason === 'rejected' || error.reason === 'no-session')
              ) {
                retried = true;
                run();
              } else observer.error(error);
            },
          });
        };
        run();
        return () => {
          closed = true;
          sub?.unsubscribe();
        };
      }),
  );

  return {
    ...auth,
    link: ApolloLink.from([relogin, auth.link]),
    start: signIn,
    dispose() {
      disposed = true;
      auth.dispose();
    },
  };
}
