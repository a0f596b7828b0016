const PAIR = 'accessToken refreshToken user { id email role }';

/**
 * The demo's sign-in doors beyond the contract's login, as the token handler holds them (`createTokenHandler({
 * signIns })`): the page names a door (`auth.signIn('register', …)`) and never sends a document. Each is one
 * mutation of the demo server's: a sign-up, a code by e-mail and the sign-in with it, a password sign-in that may
 * answer a second-factor challenge instead of a pair, and the second factor.
 */
export const signIns = {
  register: `mutation Register($email: String!, $password: String!) {
    register(email: $email, password: $password) { ${PAIR} }
  }`,
  requestCode: `mutation RequestCode($email: String!) {
    requestSignInCode(email: $email) { email expiresIn }
  }`,
  withCode: `mutation WithCode($email: String!, $code: String!) {
    signInWithCode(email: $email, code: $code) { ${PAIR} }
  }`,
  signIn: `mutation SignIn($email: String!, $password: String!) {
    signIn(email: $email, password: $password) {
      __typename
      ... on AuthPayload { ${PAIR} }
      ... on SecondFactorRequired { challenge }
    }
  }`,
  verify: `mutation Verify($challenge: String!, $code: String!) {
    verifySecondFactor(challenge: $challenge, code: $code) { ${PAIR} }
  }`,
} as const;

/** The name of one of the demo's sign-in doors. */
export type SignInDoor = keyof typeof signIns;
