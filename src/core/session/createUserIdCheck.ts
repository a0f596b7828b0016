import { inDevelopment } from '../environment/inDevelopment';
import type { SessionRecord } from './SessionRecord';

/** What a session whose user has no id says, once, in development. */
const NO_USER_ID =
  'apollo-link-token-pair: the signed-in user has no id (the access token has no `sub`, the sign-in answer no ' +
  '`user.id`): set `readUser` in createTokenAuth to read it from your claims.';

/**
 * The check a session runs on each record it makes live: a user with no id is said once, in development, naming
 * `readUser`, rather than left a silent `''`.
 */
export function createUserIdCheck(): (record: SessionRecord) => void {
  let told = false;
  return ({ user, pair }) => {
    // A pair with no access token yet (a restore) says nothing of its user.
    if (told || user.id || !pair.accessToken || !inDevelopment()) return;
    told = true;
    console.warn(NO_USER_ID);
  };
}
