import { Kind, getOperationAST, parse } from 'graphql';

/** The body of a GraphQL POST request. */
export interface GraphqlRequest {
  query: string;
  variables: Readonly<Record<string, unknown>> | undefined;
  operationName: string | undefined;
}

/** Parses a POST body into a GraphQL request, or says why it is not one. */
export function parseGraphqlRequest(text: string): GraphqlRequest | { error: string } {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { error: 'Request body is not valid JSON' };
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { error: 'Request body must be a JSON object' };
  }
  const { query, variables, operationName } = body as Record<string, unknown>;
  if (typeof query !== 'string') return { error: 'Request body must have a string "query"' };
  if (variables != null && (typeof variables !== 'object' || Array.isArray(variables))) {
    return { error: '"variables" must be an object' };
  }
  if (operationName != null && typeof operationName !== 'string') return { error: '"operationName" must be a string' };
  return {
    query,
    variables: (variables ?? undefined) as GraphqlRequest['variables'],
    operationName: operationName ?? undefined,
  };
}

/** The names of the top-level fields the request's operation selects; [] when the query does not parse. */
export function topLevelFields({ query, operationName }: GraphqlRequest): string[] {
  try {
    const operation = getOperationAST(parse(query), operationName);
    return operation?.selectionSet.selections.flatMap((s) => (s.kind === Kind.FIELD ? [s.name.value] : [])) ?? [];
  } catch {
    return [];
  }
}
