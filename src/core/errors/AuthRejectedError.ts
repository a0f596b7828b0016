import { BrandedError } from './BrandedError';

/**
 * The service answered an auth call with a GraphQL error: wrong credentials at login, or a refresh token
 * that is used, revoked or expired.
 *
 * @remarks
 * Its `message` is for people: the service's own words ("Invalid email or password"), or plain ones when it
 * sent none; `code`, `operation` and `errors` are for the program. A rejected refresh ends the session; waiting
 * operations then see a `SessionEndedError` whose `cause` is this error.
 *
 * An `uncertain` rejection (Apollo Server's `INTERNAL_SERVER_ERROR`, which it gives every error thrown without a
 * code, refusals and crashes alike) ends the session only when the refresh is answered so three times in a row;
 * until then the session keeps its pair and retries, as after an outage.
 */
export class AuthRejectedError extends BrandedError {
  static override brand = 'AuthRejectedError';
  /** Tells whether `error` is an {@link AuthRejectedError}, even one from another copy of this package. */
  declare static is: (error: unknown) => error is AuthRejectedError;

  /** `extensions.code` of the first GraphQL error, such as `INVALID_CREDENTIALS`, when the server sent one. */
  declare readonly code: string | undefined;
  /** The mutation that was rejected. */
  declare readonly operation: string;
  /** The GraphQL errors as the server sent them. */
  declare readonly errors: ReadonlyArray<{ readonly message?: string; readonly extensions?: Record<string, unknown> }>;
  /**
   * `true` when the answer may be a server failure rather than a verdict (see `isRefusal`): a refresh rejected
   * so is retried before the session ends.
   */
  declare readonly uncertain: boolean;

  // Fields are declared and assigned in the constructor: no field initializers to ship twice.
  constructor(
    message: string,
    operation: string,
    errors: AuthRejectedError['errors'],
    options: { readonly uncertain?: boolean } = {},
  ) {
    super(message);
    const code = errors[0]?.extensions?.code;
    this.code = typeof code === 'string' ? code : undefined;
    this.operation = operation;
    this.errors = errors;
    this.uncertain = options.uncertain ?? false;
  }
}

/**
 * The message of a rejection of `operation`: what the service said, or plain words when it said nothing (a bare
 * 401 or 403, an error without a message). The words never blame the password: a gateway's bare 403 is not the
 * user's typing.
 */
export const rejectionMessage = (operation: string, said: unknown, status: number): string =>
  typeof said == 'string' && said
    ? said
    : `The service refused ${operation.startsWith('login') ? 'the sign-in' : 'the session'}${status >= 400 ? ` (HTTP ${status})` : ''}.`;
