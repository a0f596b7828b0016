import type { GuardedRequest } from './guardRequest';
import { errorResponse } from './jsonResponse';
import { signInUpstream, type SignInUpstreamOptions } from './signInUpstream';

/** What {@link createLoginRoute} needs. */
export type LoginRouteOptions = SignInUpstreamOptions;

/**
 * Creates the login route, `{basePath}/login`: `{ email, password }` past the throttle to the upstream's login,
 * the pair into a new cookie, the user and access token to the page. The session the browser had is revoked.
 */
export function createLoginRoute(
  options: LoginRouteOptions,
): (request: Request, guarded: GuardedRequest) => Promise<Response> {
  const { upstream } = options;

  return async function login(request, { body }) {
    const { email, password } = body;
    if (typeof email !== 'string' || typeof password !== 'string') {
      return errorResponse(400, 'BAD_REQUEST', 'Send { "email": string, "password": string }.');
    }
    return signInUpstream(options, request, {
      attempt: { email },
      call: (signal) => upstream.transport(request).login(email, password, signal),
      refused: 'Wrong e-mail or password.',
    });
  };
}
