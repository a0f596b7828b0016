/**
 * The token auth devtools in every build, production included: for a page that loads the panel on purpose.
 *
 * @example
 * ```tsx
 * import { lazy, Suspense } from 'react';
 *
 * const TokenAuthDevtools = lazy(() =>
 *   import('apollo-link-token-pair/devtools/production').then((m) => ({ default: m.TokenAuthDevtools })),
 * );
 *
 * export function Debug() {
 *   return (
 *     <Suspense fallback={null}>
 *       <TokenAuthDevtools auth={auth} />
 *     </Suspense>
 *   );
 * }
 * ```
 *
 * @packageDocumentation
 * @module apollo-link-token-pair/devtools/production
 */
export { TokenAuthDevtoolsPanel as TokenAuthDevtools, type TokenAuthDevtoolsProps } from '../TokenAuthDevtoolsPanel';
