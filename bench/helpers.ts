import { ApolloClient, ApolloLink, InMemoryCache } from '@apollo/client';

/** The seeded account the benchmarks log in with. */
export const ADMIN = { email: 'admin@demo.test', password: 'admin-pass' } as const;

/** A `fetch` answer carrying `body` as JSON. */
export function jsonResponse(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

/** Reads the GraphQL request a stub `fetch` received. */
export function readGraphqlRequest(init: RequestInit | undefined): {
  query: string;
  variables: Record<string, string>;
} {
  return JSON.parse(String(init?.body)) as { query: string; variables: Record<string, string> };
}

/**
 * An `ApolloClient` to pass as the execute context of links run outside a client.
 *
 * @remarks
 * `ErrorLink` reads `operation.client.queryManager.incrementalHandler` on every result, so a bare `{}` client
 * would make the recipe chain throw; every chain gets this same client so that none is favoured.
 */
export function createContextClient(): ApolloClient {
  return new ApolloClient({ link: ApolloLink.empty(), cache: new InMemoryCache() });
}

/** The median of `values` (mean of the two middle values for an even count). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  if (sorted.length === 0) return Number.NaN;
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** The nearest-rank `p`th percentile of `values` (0 < p ≤ 100). */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length))) - 1]!;
}

/** Resolves `promise`'s value, or `timedOut` when it takes longer than `ms`. */
export function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T | typeof timedOut> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const limit = new Promise<typeof timedOut>((resolve) => {
    timer = setTimeout(() => resolve(timedOut), ms);
  });
  return Promise.race([promise, limit]).finally(() => clearTimeout(timer));
}

/** What {@link withTimeout} resolves when time ran out. */
export const timedOut = Symbol('timed out');

/** A Markdown table. */
export function markdownTable(headers: readonly string[], rows: ReadonlyArray<readonly (string | number)[]>): string {
  const line = (cells: readonly (string | number)[]) => `| ${cells.join(' | ')} |`;
  const align = headers.map((_, index) => (index === 0 ? '---' : '---:'));
  return [line(headers), line(align), ...rows.map(line)].join('\n');
}

/** `value` with `digits` decimals, or `n/a` when it is not a finite number. */
export function fixed(value: number, digits: number): string {
  return Number.isFinite(value) ? value.toFixed(digits) : 'n/a';
}
