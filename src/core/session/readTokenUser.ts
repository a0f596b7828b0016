import type { TokenClaims } from '../tokens/readTokenPair';
import type { TokenUser } from './TokenAuthState';

/**
 * What an app's `readUser` returns: the user as its access token's claims and its sign-in answer name it. A role
 * may be one name or a list (`roles[]`); a flag (`isAdmin`) is mapped to a name here.
 */
export interface UserFields {
  readonly id?: string | number | null | undefined;
  readonly email?: string | null | undefined;
  readonly role?: string | readonly string[] | null | undefined;
}

/**
 * Reads the user from an access token's claims and what the sign-in answer said of the user (`answer`, absent
 * after a refresh whose answer named nobody: then the user the session knew).
 */
export type ReadUser = (claims: TokenClaims, answer: Readonly<Record<string, unknown>> | undefined) => UserFields;

/** How a session reads its user: the app's `readUser`, else by `roleClaim`. */
export interface UserReading {
  /** The claim that holds the role (the `roleClaim` option), for the default reading. */
  readonly roleClaim: string;
  readonly readUser?: ReadUser | undefined;
}

/**
 * The user of a pair: by the app's `readUser`, or by default the answer's `id` and `email` else the `sub` and
 * `email` claims, and the role from `roleClaim` (a name or a list of names) else the answer's. `role` is the first
 * of `roles`; `id` is `''` when nothing names it.
 */
export function readTokenUser(
  claims: TokenClaims,
  answer: Readonly<Record<string, unknown>> | undefined,
  { roleClaim, readUser }: UserReading,
): TokenUser {
  const fields: UserFields = readUser
    ? readUser(claims, answer)
    : {
        id: (answer?.['id'] ?? claims['sub']) as UserFields['id'],
        email: (answer?.['email'] ?? claims['email']) as UserFields['email'],
        role: (claims[roleClaim] ?? answer?.['roles'] ?? answer?.['role']) as UserFields['role'],
      };
  const { id, email, role } = fields;
  const roles = (Array.isArray(role) ? role : [role]).filter((each): each is string => typeof each === 'string');
  return {
    id: typeof id === 'string' || typeof id === 'number' ? String(id) : '',
    ...(typeof email === 'string' && { email }),
    role: roles[0],
    roles,
    claims,
  };
}
