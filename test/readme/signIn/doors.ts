// doors.ts: the app's own ways into a session, besides the contract's loginWithEmailPassword. Each is a mutation
// whose one top-level field answers a pair (or, for a step that begins no session, anything else).
import { gql, type TypedDocumentNode } from '@apollo/client';
import { createTokenAuth } from 'apollo-link-token-pair';

/** A pair as the server answers it, with the user. */
interface Pair {
  accessToken: string;
  refreshToken: string;
  user: { id: string; email: string; role: string };
}

export const signIns = {
  // Sign-up answers a pair: no second round trip to log in.
  register: gql`
    mutation Register($email: String!, $password: String!) {
      register(email: $email, password: $password) {
        accessToken
        refreshToken
        user {
          id
          email
          role
        }
      }
    }
  ` as TypedDocumentNode<{ register: Pair }, { email: string; password: string }>,
  // A one-time code by e-mail: the first step answers no pair, so `signIn` resolves `{ next }`.
  requestCode: gql`
    mutation RequestCode($email: String!) {
      requestSignInCode(email: $email) {
        email
        expiresIn
      }
    }
  ` as TypedDocumentNode<{ requestSignInCode: { email: string; expiresIn: number } }, { email: string }>,
  withCode: gql`
    mutation WithCode($email: String!, $code: String!) {
      signInWithCode(email: $email, code: $code) {
        accessToken
        refreshToken
        user {
          id
          email
          role
        }
      }
    }
  ` as TypedDocumentNode<{ signInWithCode: Pair }, { email: string; code: string }>,
  // A password that some accounts follow with a second factor: a union answer.
  signIn: gql`
    mutation SignIn($email: String!, $password: String!) {
      signIn(email: $email, password: $password) {
        __typename
        ... on AuthPayload {
          accessToken
          refreshToken
          user {
            id
            email
            role
          }
        }
        ... on SecondFactorRequired {
          challenge
        }
      }
    }
  ` as TypedDocumentNode<
    { signIn: (Pair & { __typename: 'AuthPayload' }) | { __typename: 'SecondFactorRequired'; challenge: string } },
    { email: string; password: string }
  >,
  verify: gql`
    mutation Verify($challenge: String!, $code: String!) {
      verifySecondFactor(challenge: $challenge, code: $code) {
        accessToken
        refreshToken
        user {
          id
          email
          role
        }
      }
    }
  ` as TypedDocumentNode<{ verifySecondFactor: Pair }, { challenge: string; code: string }>,
  // A Google ID token (the `credential` of Google Identity Services) exchanged for a pair. A server that names
  // the pair otherwise is read through aliases: `accessToken: jwt refreshToken: renewal`.
  google: gql`
    mutation Google($idToken: String!) {
      signInWithIdToken(idToken: $idToken) {
        accessToken
        refreshToken
        user {
          id
          email
          role
        }
      }
    }
  ` as TypedDocumentNode<{ signInWithIdToken: Pair }, { idToken: string }>,
};

export function createAuth(uri: string) {
  return createTokenAuth({ uri, signIns });
}
