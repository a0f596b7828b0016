import { jwtDecode } from 'jwt-decode';
import type { CookieSession } from './Outcome';

/**
 * How long the access token of `session` lives on, and its whole lifetime, in ms: timed from when the handler
 * received it (`t`), so a skew between its clock and the upstream's does not count. Both 0 for a token that
 * does not decode.
 */
export function getTokenLife({ a, t }: CookieSession, now: number): { left: number; lifetime: number } {
  try {
    const { exp, iat } = jwtDecode<{ exp?: number; iat?: number }>(a);
    const lifetime = (exp! - (typeof iat === 'number' ? iat : t / 1000)) * 1000;
    return { left: t + lifetime - now, lifetime };
  } catch {
    return { left: 0, lifetime: 0 };
  }
}
