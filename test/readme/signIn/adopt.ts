// adopt.ts: a session from a pair the app already holds. Here, the pair another library kept in localStorage,
// moved once into the session (and out of localStorage, where any script in the page could read it).
import type { TokenAuth, TokenUser } from 'apollo-link-token-pair';

export async function adoptStoredPair(
  auth: TokenAuth,
  storage: Pick<Storage, 'getItem' | 'removeItem'>,
): Promise<TokenUser | null> {
  const accessToken = storage.getItem('accessToken');
  const refreshToken = storage.getItem('refreshToken');
  if (!accessToken || !refreshToken) return null;
  storage.removeItem('accessToken');
  storage.removeItem('refreshToken');
  // No request while the access token lives; a dead one is renewed once, with this refresh token.
  const { user } = await auth.adopt({ accessToken, refreshToken });
  return user;
}
