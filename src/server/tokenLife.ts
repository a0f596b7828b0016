import { jwtDecode } from 'jwt-decode';
import type { HandlerSession } from './HandlerSession';

/**
 * How long the access token of `session` lives on, and its whole lifetime, in ms: timed from when the handler
 * received it (`receivedAt`), so a skew between its clock and the upstream's does not count. Both 0 for a token that
 * does not decode.
 */
export function getTokenLife(
  { accessToken, receivedAt }: HandlerSession,
  now: number,
): { left: number; lifetime: number } {
  try {
    const { exp, iat } = jwtDecode<{ exp?: number; iat?: number }>(accessToken);
    const lifetime = (exp! - (typeof iat === 'number' ? iat : receivedAt / 1000)) * 1000;
    return { left: receivedAt + lifetime - now, lifetime };
  } catch {
    return { left: 0, lifetime: 0 };
  }
}
