/** When an access token expires and when it should be renewed, in local milliseconds since the epoch. */
export interface TokenSchedule {
  /** When the token stops working, by the local clock. */
  readonly expiresAt: number;
  /** When the proactive refresh is due. */
  readonly refreshAt: number;
}

/** The claims that decide a token's schedule, in seconds as JWTs carry them. */
export interface TimingClaims {
  readonly exp?: number;
  readonly iat?: number;
}

/**
 * Works out when a token expires and when to refresh it.
 *
 * @remarks
 * A token received just now is timed from its own lifetime (`exp − iat`) counted from `receivedAt`, so a
 * server whose clock is off by minutes does not make the client refresh too early or too late. Without `iat`,
 * the lifetime is what is left of `exp` by the local clock. A token restored from a store (no `receivedAt`) is
 * timed by its `exp` against the local clock.
 *
 * The refresh runs `leadTime` before expiry. A lead time that is not shorter than the lifetime would refresh
 * forever, so the refresh then runs at 85 % of the lifetime (1.18 refreshes per lifetime, about the default's
 * 1.2 for 15-minute tokens), and it never runs earlier than 10 % into it. A token of a few seconds is renewed no
 * later than a second and a twentieth of its life before its end (at most half its life before): `iat` and `exp`
 * are whole seconds, so the server may take it for dead up to a second before its lifetime, counted from
 * `receivedAt`, is over.
 *
 * @returns `null` when the token has no usable `exp`, or when, without `iat`, it looks dead on arrival (the
 * clocks disagree and nothing tells by how much): it is then renewed only after `TOKEN_EXPIRED`.
 */
export function getTokenSchedule(claims: TimingClaims, leadTime: number, receivedAt?: number): TokenSchedule | null {
  const { exp, iat } = claims;
  if (!isSeconds(exp)) return null;
  // Timed by `exp` without `receivedAt`; with it, from `receivedAt` by the lifetime (`exp` against the local
  // clock only where there is no `iat`).
  const lifetime = isSeconds(iat) ? (exp - iat) * 1000 : receivedAt === undefined ? NaN : exp * 1000 - receivedAt;
  if (receivedAt !== undefined && !(lifetime > 0)) return null;
  const expiresAt = receivedAt === undefined ? exp * 1000 : receivedAt + lifetime;
  // Without a known lifetime, the lead time as it is; with one, at most 90 % of it, and for a life not longer
  // than the lead time, 15 % of it, or the second its whole-second claims may have lost and a twentieth (at most
  // half a life).
  const lead = !(lifetime > 0)
    ? leadTime
    : leadTime < lifetime
      ? Math.min(leadTime, lifetime * 0.9)
      : Math.max(lifetime * 0.15, Math.min(1_000 + lifetime * 0.05, lifetime / 2));
  return { expiresAt, refreshAt: expiresAt - lead };
}

// Number.isFinite is false for anything that is not a number: no coercion.
const isSeconds = Number.isFinite as (value: unknown) => value is number;
