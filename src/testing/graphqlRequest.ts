import { Kind, getOperationAST, parse } from 'graphql';

/** One GraphQL operation of a POST body. */
export interface GraphqlRequest {
  query: string;
  variables: Readonly<Record<string, unknown>> | undefined;
  operationName: string | undefined;
}

/** A POST body: one operation, or the array of them a batching client (Apollo's `BatchHttpLink`) sends. */
export interface GraphqlBody {
  requests: GraphqlRequest[];
  /** Whether the body was an array, to be answered with an array. */
  batch: boolean;
}

/** Parses a POST body into its GraphQL operations, or says why it is not one. */
export function parseGraphqlBody(text: string): GraphqlBody | { error: string } {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { error: 'Request body is not valid JSON' };
  }
  if (!Array.isArray(body)) {
    const request = parseGraphqlRequest(body);
    return 'error' in request ? request : { requests: [request], batch: false };
  }
  if (body.length === 0) return { error: 'A batch must hold at least one operation' };
  const requests: GraphqlRequest[] = [];
  for (const [index, entry] of body.entries()) {
    const request = parseGraphqlRequest(entry);
    if ('error' in request) return { error: `Batch entry ${index}: ${request.error}` };
    requests.push(request);
  }
  return { requests, batch: true };
}

function parseGraphqlRequest(body: unknown): GraphqlRequest | { error: string } {
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
