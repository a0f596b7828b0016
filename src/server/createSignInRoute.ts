import type { AnyVariables } from '../index';
import type { GuardedRequest } from './guardRequest';
import { errorResponse } from './jsonResponse';
import { signInUpstream, type SignInUpstreamOptions } from './signInUpstream';

/** What {@link createSignInRoute} needs. */
export type SignInRouteOptions = SignInUpstreamOptions;

/**
 * Creates the sign-in route, `{basePath}/sign-in`: `{ name, variables? }` runs the door `name` of `signIns`
 * (the app's own mutation, held here), or of the `upstream` transport, with `variables`, past the same throttle
 * and checks as a login. A pair begins the session as a login does; any other answer is `{ next }`. The page names
 * a door, and never sends a document: a name that is no door is 404 `UNKNOWN_SIGN_IN`, and nothing is sent
 * upstream.
 */
export function createSignInRoute(
  options: SignInRouteOptions,
): (request: Request, guarded: GuardedRequest) => Promise<Response> {
  const { upstream } = options;

  return async function signIn(request, { body }) {
    const { name, variables = {} } = body;
    // Only these two fields: a page that sends a document (`query`) must learn that it is not run.
    if (
      Object.keys(body).some((key) => key !== 'name' && key !== 'variables') ||
      typeof name !== 'string' ||
      typeof variables !== 'object' ||
      variables === null ||
      Array.isArray(variables)
    ) {
      return errorResponse(
        400,
        'BAD_REQUEST',
        'Send { "name": string, "variables"?: object }: the handler runs its own sign-in doors by name, and no document a page sends.',
      );
    }
    const door = upstream.door(request, name);
    if ('doors' in door) {
      const doors = door.doors.length ? `the doors there are: ${door.doors.join(', ')}` : 'there are none';
      return errorResponse(
        404,
        'UNKNOWN_SIGN_IN',
        `No sign-in door named "${name}" (${doors}). Add it to the \`signIns\` of createTokenHandler (of its \`upstream\` transport, when it has one).`,
      );
    }
    const given = variables as AnyVariables;
    return signInUpstream(options, request, {
      attempt: { email: typeof given['email'] === 'string' ? given['email'] : '', door: name },
      call: (signal) => door.signIn(given, signal),
    });
  };
}
