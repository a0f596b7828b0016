import { AuthRejectedError, isRefusal } from '../index';
import { checked, DOCTOR_CHECKS, type DoctorFinding } from './doctorChecks';
import { describeErrors, type GraphQLAnswer } from './postGraphQL';

/** The server refused a spent refresh token (`reused`): what the package makes of that refusal. */
export function judgeReuseRefusal(reused: GraphQLAnswer): DoctorFinding {
  const rejection = new AuthRejectedError(reused.errors[0]?.message ?? '', 'refreshToken', reused.errors);
  const verdict = isRefusal(rejection, 'refresh');
  return {
    check: checked(DOCTOR_CHECKS.singleUse, 'ok', `Refused: ${describeErrors(reused)}.`),
    advice:
      verdict === 'maybe'
        ? `Your server answers a spent refresh token with ${rejection.code} ("${rejection.message}"), words that do not say the token was refused: the package cannot tell that from a crash, so a session it refuses ends after 3 refreshes answered so (about 10 s with the default 5 s refreshFloor). To end it at once, give refusals a code of their own (UNAUTHENTICATED, say) or set \`isRefusal\`.`
        : verdict
          ? `Your server refuses a spent refresh token with ${rejection.code ? `the code ${rejection.code}` : 'no code'} ("${rejection.message}"): the package ends such a session at once${rejection.code === 'INTERNAL_SERVER_ERROR' ? ', since those words speak of a refused token' : ''}, with those words in \`ended.message\`.`
          : `Your server answers a spent refresh token with ${rejection.code}, a code the package takes as an outage: such a session is never ended. Set \`isRefusal\`.`,
  };
}
