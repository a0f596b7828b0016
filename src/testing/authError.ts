import { GraphQLError } from 'graphql';

/**
 * The error codes that count as authentication failures (for `authErrorStatus`): the contract's, and the refusals
 * of the sign-in doors beyond it. `EMAIL_TAKEN` and `BAD_USER_INPUT` (of `register`) are not: they refuse the input.
 */
export const AUTH_ERROR_CODES: ReadonlySet<string> = new Set([
  'TOKEN_EXPIRED',
  'UNAUTHENTICATED',
  'INVALID_CREDENTIALS',
  'INVALID_REFRESH_TOKEN',
  'SECOND_FACTOR_REQUIRED',
  'INVALID_CODE',
  'INVALID_CHALLENGE',
  'INVALID_ID_TOKEN',
]);

/** A GraphQL error whose `extensions.code` is `code`. */
export function authError(code: string, message: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code } });
}

/** Whether `errors` is non-empty and every error in it carries an authentication code. */
export function onlyAuthErrors(errors: readonly GraphQLError[] | undefined): boolean {
  return (
    errors !== undefined &&
    errors.length > 0 &&
    errors.every((error) => AUTH_ERROR_CODES.has(String(error.extensions['code'])))
  );
}
