import { hasBrand, setBrand } from './brand';

/**
 * An auth call (login, refresh or logout) that got no verdict from the service: the network failed, it timed
 * out, the server answered 5xx, or the answer was not a well-formed token response.
 *
 * @remarks
 * Transient by nature: a refresh that fails this way keeps the session, and the next operation or the
 * proactive timer tries again. Operations that were waiting for that refresh error with this error.
 */
export class AuthRequestError extends Error {
  /** Tells whether `error` is an {@link AuthRequestError}, even one from another copy of this package. */
  static is(error: unknown): error is AuthRequestError {
    return hasBrand(error, 'AuthRequestError');
  }

  /** The mutation that failed: `loginWithEmailPassword`, `refreshToken` or `logout`. */
  readonly operation: string;
  /** The HTTP status, when a response arrived. */
  readonly status: number | undefined;

  constructor(message: string, options: { operation: string; status?: number; cause?: unknown }) {
    super(message, { cause: options.cause });
    this.name = 'AuthRequestError';
    this.operation = options.operation;
    this.status = options.status;
    setBrand(this, 'AuthRequestError');
  }
}
