import { jwtDecode } from 'jwt-decode';
import type { TokenAuthState, TokenUser } from '../index';

/**
 * The state a server render shows, from the access token it rendered with (`null`: signed out), to hand to
 * `TokenAuthProvider` or `BrowserTokenAuthProvider` as `serverState`. The browser hydrates to the same markup,
 * then its own session takes over. Plain JSON, so it crosses from a server component to a client component.
 *
 * @param accessToken - The token the render used, or `null` (no session, or the API refused it).
 * @param roleClaim - The claim that holds the role, as `createTokenAuth`'s `roleClaim`. @defaultValue `'role'`
 *
 * @example
 * ```ts
 * declare const accessToken: string | null; // the token the page rendered with
 * const serverState = getServerState(accessToken); // a prop of the client component that renders the providers
 * ```
 */
export function getServerState(accessToken: string | null | undefined, roleClaim = 'role'): TokenAuthState {
  if (!accessToken) return { status: 'unauthenticated', user: null };
  try {
    const claims = jwtDecode<TokenUser['claims']>(accessToken);
    const { sub, email } = claims;
    const role = claims[roleClaim];
    return {
      status: 'authenticated',
      user: {
        id: String(sub),
        ...(typeof email === 'string' && { email }),
        role: typeof role === 'string' ? role : undefined,
        claims,
      },
    };
  } catch {
    return { status: 'unauthenticated', user: null };
  }
}
