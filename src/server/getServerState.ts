import { jwtDecode } from 'jwt-decode';
import type { TokenAuthState, TokenUser } from '../index';
import { readTokenUser, type ReadUser } from '../internal';

/**
 * The state a server render shows, from the access token it rendered with (`null`: signed out), to hand to
 * `TokenAuthProvider` or `BrowserTokenAuthProvider` as `serverState`. The browser hydrates to the same markup,
 * then its own session takes over. Plain JSON, so it crosses from a server component to a client component.
 *
 * @param accessToken - The token the render used, or `null` (no session, or the API refused it).
 * @param reading - How the page's session reads its user, so that the server shows the same: `createTokenAuth`'s
 * `roleClaim` (a string), or `{ roleClaim, readUser }`. @defaultValue `'role'`
 *
 * @example
 * ```ts
 * declare const accessToken: string | null; // the token the page rendered with
 * const serverState = getServerState(accessToken); // a prop of the client component that renders the providers
 * ```
 */
export function getServerState(
  accessToken: string | null | undefined,
  reading: string | { readonly roleClaim?: string; readonly readUser?: ReadUser } = 'role',
): TokenAuthState {
  if (!accessToken) return { status: 'unauthenticated', user: null };
  const { roleClaim = 'role', readUser } = typeof reading === 'string' ? { roleClaim: reading } : reading;
  try {
    const claims = jwtDecode<TokenUser['claims']>(accessToken);
    return { status: 'authenticated', user: readTokenUser(claims, undefined, { roleClaim, readUser }) };
  } catch {
    return { status: 'unauthenticated', user: null };
  }
}
