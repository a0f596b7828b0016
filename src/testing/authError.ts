import { GraphQLError } from 'graphql';

/** The error codes that count as authentication failures (for `authErrorStatus`). */
export const AUTH_ERROR_CODES: ReadonlySet<string> = new Set([
  'TOKEN_EXPIRED',
  'UNAUTHENTICATED',
  'INVALID_CREDENTIALS',
  'INVALID_REFRESH_TOKEN',
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
