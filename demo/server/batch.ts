import { type GraphqlRequest, parseGraphqlRequest } from './graphqlRequest.ts';

/**
 * The requests of a batched POST, as Apollo's `BatchHttpLink` sends it (a JSON array of GraphQL requests, to be
 * answered by an array of results in the same order); `undefined` when the body is not an array, so the caller
 * handles it as one request.
 */
export function parseBatch(text: string): GraphqlRequest[] | { error: string } | undefined {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!Array.isArray(body)) return undefined;
  if (body.length === 0) return { error: 'A batch must hold at least one request' };
  const requests: GraphqlRequest[] = [];
  for (const item of body) {
    const request = parseGraphqlRequest(JSON.stringify(item));
    if ('error' in request) return { error: `In the batch: ${request.error}` };
    requests.push(request);
  }
  return requests;
}
