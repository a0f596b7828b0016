// src/Catalogue.tsx: a public query beside the private ones. `skipTokenAuth` sends it without a token, at once,
// whatever the session is doing: signed out, restoring, or renewing a token.
import { gql, type TypedDocumentNode } from '@apollo/client';
import { useQuery } from '@apollo/client/react';

const CATALOGUE: TypedDocumentNode<{ catalogue: string[] }> = gql`
  query Catalogue {
    catalogue
  }
`;

export function Catalogue() {
  const { data, error } = useQuery(CATALOGUE, { context: { skipTokenAuth: true } });
  return (
    <p data-testid="catalogue">
      {data ? `On offer: ${data.catalogue.join(', ')}` : error ? `Catalogue failed: ${error.message}` : 'Loading…'}
    </p>
  );
}
