import { BrandedError } from './BrandedError';

/**
 * The server refused an access token it had just issued: no expiry, so the session spends no further refresh on
 * it, and what was refused (a subscription of `apollo-link-token-pair/ws`) ends with this error.
 *
 * @remarks
 * A server that refuses fresh tokens verifies them differently from how it signs them (another secret, a clock
 * far off, an audience it does not expect). Renewing again would only spend a rotation per attempt. `cause` holds
 * the refusal as it came (a close event, the GraphQL errors).
 */
export class TokenRefusedError extends BrandedError {
  static override brand = 'TokenRefusedError';
  /** Tells whether `error` is a {@link TokenRefusedError}, even one from another copy of this package. */
  declare static is: (error: unknown) => error is TokenRefusedError;

  constructor(cause?: unknown) {
    super(
      'The server refused an access token it had just issued, so it was not renewed again: check how the server verifies its tokens (secret, clock, audience).',
      cause,
    );
  }
}
