/**
 * The context key by which an operation says it needs no token: `context: { skipTokenAuth: true }`.
 *
 * @remarks
 * Such an operation (a sign-up, a public catalogue) carries no `Authorization` header, never waits for a refresh,
 * never starts one, and is never replayed: the session's state does not touch it.
 *
 * @example
 * ```ts
 * import { gql } from '@apollo/client';
 * import { useQuery } from '@apollo/client/react';
 *
 * const CATALOGUE = gql`query Catalogue { catalogue }`;
 * export const useCatalogue = () => useQuery(CATALOGUE, { context: { skipTokenAuth: true } });
 * ```
 */
export const SKIP_TOKEN_AUTH = 'skipTokenAuth';

declare module '@apollo/client' {
  interface DefaultContext {
    /**
     * `true`: this operation needs no token. `auth.link` sends it without `Authorization`, never holds it for a
     * refresh, and never replays it. See `SKIP_TOKEN_AUTH` of apollo-link-token-pair.
     */
    skipTokenAuth?: boolean;
  }
}

/**
 * Whether an operation whose context is `context` opted out of the token (see {@link SKIP_TOKEN_AUTH}). The links
 * read the context once: Apollo Client copies it at every `getContext()`.
 */
export function skipsTokenAuth(context: Record<string, unknown>): boolean {
  return context[SKIP_TOKEN_AUTH] === true;
}
