// signIns.ts: the app's sign-in doors, which the token handler runs when the page calls `signIn(name, variables)`
// (vite.config.ts hands them to it in development, server.ts in production). The page never imports this file:
// it names a door and sends its variables, never a document, and the pair the answer carries stays on the server.
const PAIR = 'accessToken refreshToken user { id email role }';

export const signIns = {
  // A new account, signed in at once: the answer is a pair.
  register: `mutation Register($email: String!, $password: String!) {
    register(email: $email, password: $password) { ${PAIR} }
  }`,
  // A step that begins no session (the answer is no pair): the page's signIn resolves `{ next }`.
  requestCode: `mutation RequestCode($email: String!) {
    requestSignInCode(email: $email) { email expiresIn }
  }`,
  withCode: `mutation WithCode($email: String!, $code: String!) {
    signInWithCode(email: $email, code: $code) { ${PAIR} }
  }`,
};
