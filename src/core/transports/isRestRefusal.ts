import { speaksOfAuth } from '../../shared/speaksOfAuth';
import type { RestAnswer } from './RestTransportOptions';

/**
 * Tells whether a REST auth server's answer refuses the call by what it says, whatever its status: the default of
 * `refusal.when` in {@link createRestTransport}.
 *
 * @remarks
 * REST servers put a refusal where their framework or their author did, so the default reads what most of them
 * say, and leaves everything else to be retried:
 * - a `2xx` that says no: `{ ok: false }`, `{ success: false }`, or an `error` whose words speak of a refused
 *   token or session;
 * - a login answered `4xx` with words (`400 { message: 'Invalid email or password' }`): wrong credentials,
 *   whatever status the server picked;
 * - any other status whose words speak of a refused token or session, a `500 { error: 'Invalid refresh token' }`
 *   or `400 { message: 'jwt expired' }` ("Invalid refresh token", "jwt expired", "Unauthorized", "Session
 *   revoked"); not `500 { error: 'connect ECONNREFUSED' }`, which is the server failing.
 *
 * `408` and `429` are never a refusal. The statuses of `refusal.statuses` (401 and 403) are refusals before this is
 * asked; a `400` without such words (a missing cookie) is one only when listed there.
 *
 * @example Also refuse on a code of the server's own:
 * ```ts
 * const transport = createRestTransport({
 *   login: '/api/login',
 *   refresh: '/api/refresh',
 *   refusal: { when: (answer) => answer.body['code'] === 'SESSION_REVOKED' || isRestRefusal(answer) },
 * });
 * ```
 */
export function isRestRefusal({ call, status, body, message = '' }: RestAnswer): boolean {
  if (status === 408 || status === 429) return false;
  if (status < 300)
    return body['ok'] === false || body['success'] === false || (!!body['error'] && speaksOfAuth(message));
  if (call === 'login' && status < 500 && message) return true;
  return speaksOfAuth(message);
}
