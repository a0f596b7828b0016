import { BrandedError } from './BrandedError';

/**
 * An auth call (login, refresh or logout) that got no verdict from the service: the network failed, it timed
 * out, the server answered 5xx, or the answer was not a well-formed token response.
 *
 * @remarks
 * Transient by nature: a refresh that fails this way keeps the session, and the next operation or the
 * proactive timer tries again. Operations that were waiting for that refresh error with this error.
 */
export class AuthRequestError extends BrandedError {
  static override brand = 'AuthRequestError';
  /** Tells whether `error` is an {@link AuthRequestError}, even one from another copy of this package. */
  declare static is: (error: unknown) => error is AuthRequestError;
  // Fields are declared and assigned in the constructor: no field initializers to ship twice.
  /** The mutation that failed: `loginWithEmailPassword`, `refreshToken` or `logout`. */
  declare readonly operation: string;
  /** The HTTP status, when a response arrived. */
  declare readonly status?: number;

  constructor(message: string, operation: string, status?: number, cause?: unknown) {
    super(message, cause);
    this.operation = operation;
    this.status = status;
  }
}
