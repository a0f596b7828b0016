import { readSignInDocument } from '../internal';
import type { DoctorCheck } from './DoctorCheck';
import { signInDoorCheck } from './doctorChecks';

/**
 * The doctor's checks of the app's sign-in doors (`signIns`), read before any request: each document must hold
 * one operation that selects one top-level field (`fail` otherwise: `signIn` could not read its answer), and a
 * door that selects no `accessToken` and `refreshToken` can never begin a session (`warn`: right for a step that
 * only sends a code, wrong for a door meant to sign in).
 */
export function checkSignInDocuments(signIns: Readonly<Record<string, string>> = {}): DoctorCheck[] {
  return Object.entries(signIns).map(([name, document]): DoctorCheck => {
    const { id, title } = signInDoorCheck(name);
    try {
      const door = readSignInDocument(name, document);
      return door.carriesPair
        ? { id, title, status: 'ok', detail: `Its one top-level field, ${door.field}, can answer a pair.` }
        : {
            id,
            title,
            status: 'warn',
            detail:
              `Its one top-level field, ${door.field}, selects no accessToken and refreshToken (aliased to these ` +
              'names): it always answers `next` and never begins a session. Right for a step that sends a code; ' +
              'for a door meant to sign in, select the pair.',
          };
    } catch (error) {
      return { id, title, status: 'fail', detail: (error as Error).message.replace(/^apollo-link-token-pair: /, '') };
    }
  });
}
