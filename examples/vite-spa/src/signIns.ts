// src/signIns.ts: the app's sign-in doors beside the contract's login, which `signIn(name, variables)` runs. With
// the default transport the page sends them to the API itself; behind a token handler they live on the server.
import { gql, type TypedDocumentNode } from '@apollo/client';

interface Pair {
  accessToken: string;
  refreshToken: string;
  user: { id: string; email: string; role: string };
}

// Its answer is a pair: the new account is signed in, with no login after it.
const REGISTER: TypedDocumentNode<{ register: Pair }, { email: string; password: string }> = gql`
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
`;

export const signIns = { register: REGISTER };
