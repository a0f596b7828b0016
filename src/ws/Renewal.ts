import type { TokenAuthState } from '../index';

/** The token that a resume's refresh brought, and until when a refusal of it means the server refuses fresh tokens. */
export interface Renewal {
  readonly token: string | null;
  readonly until: number;
}

// A token renewed for a subscription is fresh this long (or half its life, if shorter): refused meanwhile, it was
// not an expiry.
const FRESH = 5_000;

/**
 * Until when the token that a refresh brought to the session in `state`, at `now`, is fresh: 5 s, or half its life
 * if shorter.
 *
 * @remarks
 * A token already past its own `exp` (an answer read late, in a page that was frozen, then shared with this one)
 * may well be refused as expired: that is no sign of a server that refuses its own tokens, so it is fresh until
 * `now` only.
 */
export function freshUntil(state: Pick<TokenAuthState, 'expiresAt' | 'user'>, now: number): number {
  const { expiresAt = Infinity, user } = state;
  const dead = Number(user?.claims['exp']) * 1000 <= now;
  return dead ? now : now + Math.min(FRESH, (expiresAt - now) / 2);
}
