import { AuthRejectedError } from './AuthRejectedError';
import { AuthRequestError } from './AuthRequestError';
import type { Clock } from './Clock';

/** How auth mutations reach the service. */
export interface AuthTransport {
  readonly uri: string;
  readonly fetch: typeof fetch | undefined;
  readonly headers: Readonly<Record<string, string>> | undefined;
  readonly timeout: number;
  readonly clock: Clock;
}

// A GraphQL error with one of these codes, or under one of these statuses, is the server failing, not a
// verdict on the credentials or token: ending a session over it would log users out during an outage.
const SERVER_FAILURE_STATUSES = new Set([408, 429]);
const SERVER_FAILURE_CODES = new Set(['INTERNAL_SERVER_ERROR', 'SERVICE_UNAVAILABLE']);

type GraphQLErrorShape = AuthRejectedError['errors'][number];

/**
 * Posts one auth mutation and returns `data[field]`.
 *
 * @remarks
 * Sent straight with `fetch`, outside the Apollo link chain, so it never meets the replay logic.
 *
 * @throws {@link AuthRejectedError} when the service answers with GraphQL errors (a verdict);
 * {@link AuthRequestError} for a network failure, a timeout, HTTP 5xx, 408 or 429, a body that is not JSON, or an answer
 * without `data[field]`.
 */
export async function postAuthMutation(
  transport: AuthTransport,
  field: string,
  query: string,
  variables: Record<string, string>,
  accessToken?: string,
): Promise<unknown> {
  const { clock, timeout } = transport;
  const controller = new AbortController();
  let timer: unknown;
  // Raced rather than left to the abort signal alone: a fetch wrapper that ignores the signal must not leave
  // every waiting operation hanging.
  const expired = new Promise<never>((_, reject) => {
    timer = clock.setTimeout(() => {
      controller.abort();
      reject(new AuthRequestError(`${field} got no answer within ${timeout} ms.`, { operation: field }));
    }, timeout);
  });
  const exchange = async () => {
    let status: number | undefined;
    try {
      const response = await (transport.fetch ?? globalThis.fetch)(transport.uri, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/graphql-response+json, application/json',
          ...transport.headers,
          ...(accessToken ? { authorization: `Bearer ${accessToken}` } : undefined),
        },
        body: JSON.stringify({ query, variables }),
        signal: controller.signal,
      });
      status = response.status;
      return { status, text: await response.text() };
    } catch (cause) {
      throw new AuthRequestError(`${field} failed on the network.`, { operation: field, status, cause });
    }
  };
  let status: number;
  let text: string;
  try {
    ({ status, text } = await Promise.race([exchange(), expired]));
  } finally {
    clock.clearTimeout(timer);
  }

  let body: { data?: Record<string, unknown> | null; errors?: GraphQLErrorShape[] } | null;
  try {
    body = JSON.parse(text);
  } catch (cause) {
    throw new AuthRequestError(`${field} answered HTTP ${status} with a body that is not JSON.`, {
      operation: field,
      status,
      cause,
    });
  }
  const errors = Array.isArray(body?.errors) ? body.errors : [];
  const code = errors[0]?.extensions?.code;
  const serverFailed =
    status >= 500 || SERVER_FAILURE_STATUSES.has(status) || SERVER_FAILURE_CODES.has(code as string);
  if (errors.length > 0 && !serverFailed) {
    const message = errors[0]?.message ?? 'rejected';
    throw new AuthRejectedError(`${field} was rejected: ${message}`, {
      operation: field,
      code: typeof code === 'string' ? code : undefined,
      errors,
    });
  }
  if (serverFailed || status >= 300) {
    throw new AuthRequestError(`${field} failed with HTTP ${status}${code ? ` (${code})` : ''}.`, {
      operation: field,
      status,
    });
  }
  const data = body?.data?.[field];
  if (data === null || typeof data !== 'object') {
    throw new AuthRequestError(`${field} answered without data.${field}.`, { operation: field, status });
  }
  return data;
}
