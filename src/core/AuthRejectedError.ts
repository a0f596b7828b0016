import { hasBrand, setBrand } from './brand';

/**
 * The service answered an auth call with a GraphQL error: wrong credentials at login, or a refresh token
 * that is used, revoked or expired.
 *
 * @remarks
 * A rejected refresh ends the session; waiting operations then see a {@link SessionEndedError} whose
 * `cause` is this error.
 */
export class AuthRejectedError extends Error {
  /** Tells whether `error` is an {@link AuthRejectedError}, even one from another copy of this package. */
  static is(error: unknown): error is AuthRejectedError {
    return hasBrand(error, 'AuthRejectedError');
  }

  /** The mutation that was rejected. */
  readonly operation: string;
  /** `extensions.code` of the first GraphQL error, such as `INVALID_CREDENTIALS`, when the server sent one. */
  readonly code: string | undefined;
  /** The GraphQL errors as the server sent them. */
  readonly errors: ReadonlyArray<{ readonly message?: string; readonly extensions?: Record<string, unknown> }>;

  constructor(
    message: string,
    options: { operation: string; code?: string; errors: AuthRejectedError['errors'] },
  ) {
    super(message);
    this.name = 'AuthRejectedError';
    this.operation = options.operation;
    this.code = options.code;
    this.errors = options.errors;
    setBrand(this, 'AuthRejectedError');
  }
}
