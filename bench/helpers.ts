import { ApolloClient, ApolloLink, gql, InMemoryCache } from '@apollo/client';

/** The operation every benchmark sends: the demo schema's `ping(n: Int): Int!`. */
export const PING = gql`
  query Ping($n: Int) {
    ping(n: $n)
  }
`;

/** The seeded account the benchmarks log in with. */
export const ADMIN = { email: 'admin@demo.test', password: 'admin-pass' } as const;

/** Builds an unsigned JWT with the given claims: enough for a client that only decodes. */
export function makeJwt(claims: Record<string, unknown>): string {
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode(claims)}.c2lnbmF0dXJl`;
}

/** Reads the claims of a JWT without verifying it. */
export function readJwtClaims(token: string): Record<string, unknown> {
  const payload = token.split('.')[1] ?? '';
  return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
}

/** A pair whose access token is issued at `nowMs` and lives `lifetimeSeconds`, as the spec's service issues it. */
export function makePair(serial: number, nowMs: number, lifetimeSeconds = 900) {
  const iat = Math.floor(nowMs / 1000);
  return {
    accessToken: makeJwt({ sub: 'u_admin', email: ADMIN.email, role: 'ADMIN', iat, exp: iat + lifetimeSeconds, jti: `a${serial}` }),
    refreshToken: `refresh-${serial}`,
  };
}

/** A `fetch` answer carrying `body` as JSON. */
export function jsonResponse(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

/** Reads the GraphQL request a stub `fetch` received. */
export function readGraphqlRequest(init: RequestInit | undefined): { query: string; variables: Record<string, string> } {
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
