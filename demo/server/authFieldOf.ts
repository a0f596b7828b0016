/** The fields that sign in: the contract's login, and the sign-in doors beyond it that may answer a pair. */
const SIGN_IN_FIELDS = [
  'loginWithEmailPassword',
  'register',
  'signInWithCode',
  'signIn',
  'verifySecondFactor',
] as const;

/** A field the lab counts apart from other requests: one that signs in, a refresh, a logout, or a code request. */
export type AuthField = (typeof SIGN_IN_FIELDS)[number] | 'refreshToken' | 'logout' | 'requestSignInCode';

const FIELD = new RegExp(`\\b(${[...SIGN_IN_FIELDS, 'refreshToken', 'logout', 'requestSignInCode'].join('|')})\\s*\\(`);

/**
 * The auth field a GraphQL document calls, if any: `refreshToken(` is the mutation, and the `refreshToken` a
 * pair selects (no arguments) is not.
 */
export function authFieldOf(query: string): AuthField | undefined {
  return FIELD.exec(query)?.[1] as AuthField | undefined;
}

/** Whether `field` signs in: an answer that carries a pair begins a session, a refusal counts as a failed login. */
export function signsIn(field: AuthField | undefined): field is (typeof SIGN_IN_FIELDS)[number] {
  return (SIGN_IN_FIELDS as readonly string[]).includes(field ?? '');
}
