/**
 * The two tokens the service issues together.
 *
 * @remarks
 * The refresh token is single use: once it has been submitted to `refreshToken(token:)`, only the pair that
 * came back is valid.
 */
export interface TokenPair {
  /** Short-lived token sent as `Authorization: Bearer …`; its claims carry the role. */
  readonly accessToken: string;
  /** Long-lived, single-use token that renews the pair. */
  readonly refreshToken: string;
  /**
   * When this pair reached the client, in ms by the local clock. Written with the pair so that another tab, or
   * a restart, times it from its lifetime rather than by `exp` against a clock that may disagree with the
   * server's. Stores may drop it.
   */
  readonly receivedAt?: number;
}
