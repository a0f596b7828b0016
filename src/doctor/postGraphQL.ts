/** What a GraphQL POST came to, as the doctor reads it. */
export interface GraphQLAnswer {
  /** The HTTP status; absent when no answer came (`failure` says why). */
  readonly status?: number;
  readonly data?: Record<string, unknown> | null;
  readonly errors: ReadonlyArray<{ readonly message?: string; readonly extensions?: Record<string, unknown> }>;
  /** No answer, or one that was not JSON: in plain words. */
  readonly failure?: string;
}

/** Posts one GraphQL document, bounded by `timeout` ms; never throws. */
export async function postGraphQL(
  uri: string,
  query: string,
  variables: Record<string, unknown>,
  options: { token?: string; timeout: number; fetch?: typeof fetch },
): Promise<GraphQLAnswer> {
  let status: number | undefined;
  try {
    const response = await (options.fetch ?? fetch)(uri, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(options.token && { authorization: `Bearer ${options.token}` }),
      },
      body: JSON.stringify({ query, variables }),
      signal: AbortSignal.timeout(options.timeout),
    });
    status = response.status;
    const text = await response.text();
    const body = JSON.parse(text) as { data?: Record<string, unknown> | null; errors?: GraphQLAnswer['errors'] };
    return { status, data: body?.data, errors: Array.isArray(body?.errors) ? body.errors : [] };
  } catch (error) {
    const name = (error as Error)?.name;
    const failure =
      status !== undefined
        ? `answered HTTP ${status} with a body that is not JSON`
        : name === 'TimeoutError' || name === 'AbortError'
          ? `did not answer within ${options.timeout} ms`
          : `could not be reached (${(error as Error)?.message ?? error})`;
    return { status, errors: [], failure };
  }
}

/** The first error's code and message, as a report quotes them. */
export function describeErrors(answer: GraphQLAnswer): string {
  if (answer.failure) return answer.failure;
  const [first] = answer.errors;
  if (!first) return `HTTP ${answer.status} without errors`;
  const code = first.extensions?.['code'];
  return `"${first.message ?? ''}" with ${typeof code === 'string' ? `code ${code}` : 'no code'} (HTTP ${answer.status})`;
}
