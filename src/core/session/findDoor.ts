import type { TokenAuthTransport } from '../transports/TokenAuthTransport';
import type { Door } from './TokenAuthEvent';

/** Why `adopt` is refused behind a token handler. */
const ADOPT_BEHIND_HANDLER =
  'apollo-link-token-pair: behind a token handler the page never holds a refresh token: hand the pair to ' +
  '`handler.adopt(request, pair)` on your server.';

/**
 * Why `door` cannot be used on `transport`, or `undefined` when it can: a sign-in door the transport does not
 * have (the error names those it has, and nothing is sent), or `adopt` behind a token handler.
 */
export function findDoor(transport: TokenAuthTransport, { via, door }: Door): Error | undefined {
  if (via === 'adopt') return transport.ownsSession ? new Error(ADOPT_BEHIND_HANDLER) : undefined;
  const doors = transport.signIns;
  // A transport that lists no doors (a token handler's) leaves the name to the service.
  if (via === 'login' || (transport.signIn && (!doors || doors.includes(door!)))) return undefined;
  return new Error(
    `apollo-link-token-pair: no sign-in door "${door}" (doors: ${doors?.join(', ') || 'none'}); add its mutation to \`signIns\`.`,
  );
}
