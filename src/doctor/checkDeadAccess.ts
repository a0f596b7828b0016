import { graphQLErrorCode } from '../shared/graphQLErrorCode';
import { speaksOfAuth } from '../shared/speaksOfAuth';
import { checked, DOCTOR_CHECKS, type DoctorFinding } from './doctorChecks';
import { describeErrors, type GraphQLAnswer } from './postGraphQL';

/**
 * How the server refuses the access token of a session that ended (`answer`: here, after a logout; a revocation
 * looks the same to the client), and what the package's default isUnauthenticatedError makes of it.
 */
export function checkDeadAccess(answer: GraphQLAnswer): DoctorFinding {
  const said = describeErrors(answer);
  const codes = answer.errors.map(graphQLErrorCode);
  const words = answer.errors.map((error) => error.message ?? '').join('\n');
  const finding = (status: 'ok' | 'warn' | 'fail', detail: string, advice?: string): DoctorFinding => ({
    check: checked(DOCTOR_CHECKS.deadAccess, status, detail),
    advice,
  });
  if (answer.failure || (answer.status ?? 0) >= 500)
    return finding(
      'warn',
      `The access token of a logged-out session got ${said}: an outage to the package, not a verdict. A revoked session then ends only at its next refresh.`,
    );
  if (answer.status === 401 || codes.includes('UNAUTHENTICATED') || codes.includes('TOKEN_EXPIRED'))
    return finding(
      'ok',
      `The access token of a logged-out session is refused with ${said}: the package refreshes once, the refusal of that refresh ends the session at once.`,
    );
  if (codes.some((code) => code === '' || code === 'INTERNAL_SERVER_ERROR')) {
    if (speaksOfAuth(words))
      return finding(
        'ok',
        `The access token of a logged-out session is refused with ${said}: those words speak of a refused session, so the package checks it with a refresh at once and ends it within a round trip.`,
      );
    return finding(
      'warn',
      `Refused with ${said}: a revoked session is noticed within a minute, not at once.`,
      `Your server refuses the access token of a dead session with ${said}: words the package cannot tell from a business error, so it checks such errors with a refresh at most once a minute. To end a revoked session at once, give that refusal the code UNAUTHENTICATED, or set \`isUnauthenticatedError\` to return true for it.`,
    );
  }
  return finding(
    'fail',
    `Refused with ${said}, a code the package takes for an ordinary error: a revoked session would go unnoticed until its next refresh.`,
    `Your server refuses the access token of a dead session with ${said}: the package passes that code on as an ordinary error, so a revoked session shows signed in until its next refresh (up to 12.5 minutes). Set \`isUnauthenticatedError\` to return true for it: \`(error) => isUnauthenticatedError(error) || (CombinedGraphQLErrors.is(error) && error.errors.some((each) => each.extensions?.code === '${codes.find(Boolean)}'))\`.`,
  );
}
