import { gql, type TypedDocumentNode } from '@apollo/client';

// The test server's sign-in doors, as an app would write its documents for them (`signIns`).

/** A pair as the doors answer it, with the user. */
export interface DoorPair {
  readonly accessToken: string;
  readonly refreshToken: string;
  readonly user: { readonly id: string; readonly email: string; readonly role: string };
}

const PAIR = 'accessToken refreshToken user { id email role }';

export const REGISTER: TypedDocumentNode<{ register: DoorPair }, { email: string; password: string }> = gql`
  mutation Register($email: String!, $password: String!) {
    register(email: $email, password: $password) { ${PAIR} }
  }
`;

export const REQUEST_CODE: TypedDocumentNode<
  { requestSignInCode: { email: string; expiresIn: number } },
  { email: string }
> = gql`
  mutation RequestCode($email: String!) {
    requestSignInCode(email: $email) {
      email
      expiresIn
    }
  }
`;

export const WITH_CODE: TypedDocumentNode<{ signInWithCode: DoorPair }, { email: string; code: string }> = gql`
  mutation WithCode($email: String!, $code: String!) {
    signInWithCode(email: $email, code: $code) { ${PAIR} }
  }
`;

export const SIGN_IN: TypedDocumentNode<
  { signIn: (DoorPair & { __typename: 'AuthPayload' }) | { __typename: 'SecondFactorRequired'; challenge: string } },
  { email: string; password: string }
> = gql`
  mutation SignIn($email: String!, $password: String!) {
    signIn(email: $email, password: $password) {
      __typename
      ... on AuthPayload { ${PAIR} }
      ... on SecondFactorRequired { challenge }
    }
  }
`;

export const VERIFY: TypedDocumentNode<{ verifySecondFactor: DoorPair }, { challenge: string; code: string }> = gql`
  mutation Verify($challenge: String!, $code: String!) {
    verifySecondFactor(challenge: $challenge, code: $code) { ${PAIR} }
  }
`;

export const WITH_ID_TOKEN: TypedDocumentNode<{ signInWithIdToken: DoorPair }, { idToken: string }> = gql`
  mutation WithIdToken($idToken: String!) {
    signInWithIdToken(idToken: $idToken) { ${PAIR} }
  }
`;

/** An account nobody has yet, which the `register` door signs up. */
export const NEWCOMER = { email: 'new@demo.test', password: 'a new password' } as const;

/** Every door of the test server, by the name the tests call it. */
export const DOORS = {
  register: REGISTER,
  requestCode: REQUEST_CODE,
  withCode: WITH_CODE,
  signIn: SIGN_IN,
  verify: VERIFY,
  withIdToken: WITH_ID_TOKEN,
};
