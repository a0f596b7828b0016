/**
 * The `extensions.code` of a GraphQL error as text, or `''` when it has none: servers send a string, a few a
 * number; anything else names no code.
 */
export function graphQLErrorCode(
  error: { readonly extensions?: Readonly<Record<string, unknown>> } | undefined,
): string {
  const code = error?.extensions?.['code'];
  return typeof code === 'string' || typeof code === 'number' ? String(code) : '';
}
