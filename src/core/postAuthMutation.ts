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

// A GraphQL error with one of these codes, or under these statuses, is the server failing, not a verdict on
// the credentials or token: ending a session over it would log users out during an outage.
const SERVER_FAILURE = /^(408|429|5\d\d|INTERNAL_SERVER_ERROR|SERVICE_UNAVAILABLE)$/;

/**
 * Posts one auth mutation and returns `data[field]`.
 *
 * @remarks
 * Sent straight with `fetch`, outside the Apollo link chain, so it never meets the replay logic.
 *
 * @throws {@link AuthRejectedError} when the service answers with GraphQL errors (a verdict);
 * {@link AuthRequestError} for a network failure, a timeout, HTTP 5xx, 408 or 429, a body that is not JSON, or
 * an answer without `data[field]`.
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
  let status: number | undefined;
  const fail = (why: string, cause?: unknown) => new AuthRequestError(`${field} ${why}.`, field, status, cause);
  // Raced rather than left to the abort signal alone: a fetch wrapper that ignores the signal must not leave
  // every waiting operation hanging.
  const expired = new Promise<never>((_, reject) => {
    timer = clock.setTimeout(() => {
      controller.abort();
      reject(fail(`got no answer within ${timeout} ms`));
    }, timeout);
  });
  const exchange = async () => {
    try {
      const response = await (transport.fetch ?? fetch)(transport.uri, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...transport.headers,
          ...(accessToken && { authorization: `Bearer ${accessToken}` }),
        },
        body: JSON.stringify({ query, variables }),
        signal: controller.signal,
      });
      status = response.status;
      return await response.text();
    } catch (cause) {
      throw fail('failed on the network', cause);
    }
  };
  let body: { data?: Record<string, unknown> | null; errors?: AuthRejectedError['errors'] } | null;
  try {
    const text = await Promise.race([exchange(), expired]);
    try {
      body = JSON.parse(text);
    } catch (cause) {
      throw fail(`answered HTTP ${status} with a body that is not JSON`, cause);
    }
  } finally {
    clock.clearTimeout(timer);
  }
  const errors = body?.errors ?? [];
  const code = errors[0]?.extensions?.code;
  const serverFailed = SERVER_FAILURE.test(`${status}`) || SERVER_FAILURE.test(`${code}`);
  if (errors.length && !serverFailed) {
    throw new AuthRejectedError(`${field} was rejected: ${errors[0]?.message}`, field, errors);
  }
  if (serverFailed || status! >= 300) throw fail(`failed with HTTP ${status}${code ? ` (${code})` : ''}`);
  const data = body?.data?.[field];
  if (!data || typeof data !== 'object') throw fail(`answered without data.${field}`);
  return data;
}
