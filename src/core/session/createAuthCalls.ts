import { bounded } from '../environment/bounded';
import type { Clock } from '../environment/Clock';
import { AuthRejectedError } from '../errors/AuthRejectedError';
import { AuthRequestError } from '../errors/AuthRequestError';
import { SessionEndedError } from '../errors/SessionEndedError';
import type { TokenPair } from '../tokens/TokenPair';
import type { TokenAuthTransport } from '../transports/TokenAuthTransport';

/** How a session calls its auth service. See {@link createAuthCalls}. */
export interface AuthCalls {
  /**
   * Runs one call of the service (`operation` names it in errors). `outlivesDispose`: a call that dispose() does
   * not abort, only its timeout (a refresh, once sent).
   */
  call<T>(operation: string, run: (signal: AbortSignal) => Promise<T>, how?: { outlivesDispose?: boolean }): Promise<T>;
  /** Revokes `pair` on the service; a failure goes to `onError`. */
  revoke(pair: TokenPair): Promise<void>;
}

/** What {@link createAuthCalls} needs. */
export interface AuthCallsHost {
  readonly clock: Clock;
  readonly transport: TokenAuthTransport;
  /** The bound of each call, in ms (the `refreshTimeout` option). */
  readonly timeout: number;
  /** The session's dispose(). */
  readonly signal: AbortSignal;
  report(error: unknown): void;
}

/**
 * Creates the {@link AuthCalls} of a session: every call is bounded by `refreshTimeout` and aborted by dispose();
 * what it throws without a verdict becomes an `AuthRequestError`, so a custom transport cannot end a session by
 * accident.
 */
export function createAuthCalls({ clock, transport, timeout: ms, signal, report }: AuthCallsHost): AuthCalls {
  const call: AuthCalls['call'] = async (operation, run, how = {}) => {
    try {
      return await bounded(run, {
        clock,
        ms,
        timeout: () => new AuthRequestError(`${operation} got no answer within ${ms} ms.`, operation),
        ...(!how.outlivesDispose && { signal }),
        // A refresh the service answered as its bound ran out is read, not abandoned: its token is spent, and
        // submitting it again would be reuse.
        grace: operation === 'refreshToken' ? 1000 : 0,
      });
    } catch (error) {
      if (AuthRejectedError.is(error) || AuthRequestError.is(error) || SessionEndedError.is(error)) throw error;
      throw new AuthRequestError(`${operation} failed.`, operation, undefined, error);
    }
  };
  return {
    call,
    revoke: (pair) => call('logout', (signal) => transport.logout(pair, signal)).then(() => {}, report),
  };
}
