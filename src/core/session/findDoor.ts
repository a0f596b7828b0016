import type { TokenAuthTransport } from '../transports/TokenAuthTransport';
import type { Door } from './TokenAuthEvent';

/**
 * Why `door` cannot be used on `transport`, or `undefined` when it can: a sign-in door the transport does not
 * have (the error names those it has, and nothing is sent), or `adopt` in token-handler mode, where the page
 * must never hold a refresh token.
 */
export function findDoor(transport: TokenAuthTransport, door: Door): Error | undefined {
  if (door.via === 'adopt') {
    return transport.ownsSession
      ? new Error(
          'apollo-link-token-pair: adopt() hands a pair to the page, and behind a token handler the refresh token ' +
            'never reaches the page: hand the pair to the handler on your server instead, with ' +
            '`handler.adopt(request, pair)`, and send its cookie back.',
        )
      : undefined;
  }
  if (door.via !== 'signIn') return undefined;
  const doors = transport.signIns;
  if (transport.signIn && (!doors || doors.includes(door.door!))) return undefined;
  const there = doors?.length ? `the doors there are: ${doors.join(', ')}` : 'there are none';
  return new Error(
    `apollo-link-token-pair: no sign-in door named "${door.door}" (${there}). Name the app's mutation in the ` +
      '`signIns` option of createTokenAuth (or of createTokenHandler, behind a token handler).',
  );
}
