import { ApolloLink, gql, type TypedDocumentNode } from '@apollo/client';
import { Observable } from 'rxjs';

/** The app's own `me` document, handed to `<TokenAuthProvider me>`. */
export const APP_ME: TypedDocumentNode<{ me: { id: string; email: string; role: string } }> = gql`
  query AppMe {
    me {
      id
      email
      role
    }
  }
`;

/** A screen's query that needs a token. */
export const CLUBS: TypedDocumentNode<{ clubs: Array<{ id: string; name: string }> }> = gql`
  query Clubs {
    clubs {
      id
      name
    }
  }
`;

/** The API as a link: answers `me` and `clubs` for a request with a token, refuses one without; records each. */
export function recordingApi() {
  const sent: Array<{ name: string; token: boolean }> = [];
  const link = new ApolloLink(
    (operation) =>
      new Observable((observer) => {
        const token = !!(operation.getContext().headers as Record<string, string> | undefined)?.authorization;
        sent.push({ name: operation.operationName ?? '', token });
        if (!token) observer.next({ errors: [{ message: 'Not authenticated' }] });
        else if (operation.operationName === 'Clubs')
          observer.next({ data: { clubs: [{ __typename: 'Club', id: 'c1', name: 'Downtown' }] } });
        else observer.next({ data: { me: { __typename: 'User', id: 'u_1', email: 'a@b.test', role: 'ADMIN' } } });
        observer.complete();
      }),
  );
  return { sent, link };
}
