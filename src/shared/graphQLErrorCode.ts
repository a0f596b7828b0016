/** A GraphQL error as it comes over the wire, as far as its code goes. */
export type GraphQLErrorLike = { readonly extensions?: Readonly<Record<string, unknown>> } | null | undefined;

/**
 * The `extensions.code` of a GraphQL error as text, or `''` when it has none: servers send a string, a few a
 * number; anything else names no code.
 */
export function graphQLErrorCode(error: GraphQLErrorLike): string {
  const code = error?.extensions?.['code'];
  return typeof code === 'string' || typeof code === 'number' ? String(code) : '';
}
