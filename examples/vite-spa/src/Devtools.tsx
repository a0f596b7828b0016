// src/Devtools.tsx: the token auth devtools. A development build shows the panel's button; a production build
// drops the panel (TokenAuthDevtools renders nothing there), unless the page is opened with `?devtools`: then it
// loads the panel on purpose, as for a support session, in a chunk of its own that other visits never fetch.
import type { TokenAuth } from 'apollo-link-token-pair';
import { TokenAuthDevtools } from 'apollo-link-token-pair/devtools';
import { lazy, Suspense } from 'react';

const ProductionDevtools = lazy(() =>
  import('apollo-link-token-pair/devtools/production').then((module) => ({ default: module.TokenAuthDevtools })),
);

export function Devtools({ auth }: { auth: TokenAuth }) {
  if (!new URLSearchParams(location.search).has('devtools')) return <TokenAuthDevtools auth={auth} />;
  return (
    <Suspense fallback={null}>
      <ProductionDevtools auth={auth} />
    </Suspense>
  );
}
