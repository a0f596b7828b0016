import { ApolloClient, ApolloLink, HttpLink, InMemoryCache } from '@apollo/client';
import { createAuthServer } from '../demo/server/createAuthServer.ts';
import { createTokenAuth } from '../src/index.ts';
import { createDocsRecipeLink, loginWithRecipe } from './docsRecipe.ts';
import { ping } from '../test/helpers/pingClient.ts';
import { ADMIN, fixed, markdownTable, percentile, timedOut, withTimeout } from './helpers.ts';

/** The two chains a storm compares. */
export type StormChain = 'recipe' | 'package';

/** One storm: `n` operations at once on an expired access token. */
export interface StormRow {
  readonly chain: StormChain;
  readonly n: number;
  readonly refreshCalls: number;
  readonly reuseDetections: number;
  readonly failed: number;
  /** Operations still pending when the run's time limit struck. */
  readonly unsettled: number;
  readonly p50: number;
  readonly p99: number;
  readonly wallMs: number;
  /** The first failure's message, to say why operations failed. */
  readonly firstError?: string;
}

/** Runs every storm, each against a fresh in-process demo server. */
export async function measureStorms(sizes: readonly number[], timeoutMs: number): Promise<StormRow[]> {
  const rows: StormRow[] = [];
  for (const n of sizes) {
    for (const chain of ['recipe', 'package'] as const) rows.push(await runStorm(chain, n, timeoutMs));
  }
  return rows;
}

/**
 * Logs in, makes the server expire every access token, then fires `n` queries at once and records what the
 * server saw and how each query settled.
 */
async function runStorm(chain: StormChain, n: number, timeoutMs: number): Promise<StormRow> {
  const server = createAuthServer();
  const uri = await server.listen(0, '127.0.0.1');
  const cleanup: Array<() => void> = [];
  try {
    const httpLink = new HttpLink({ uri });
    let link: ApolloLink;
    if (chain === 'recipe') {
      link = createDocsRecipeLink(await loginWithRecipe(uri, ADMIN.email, ADMIN.password), httpLink);
    } else {
      const auth = createTokenAuth({ uri });
      cleanup.push(auth.dispose);
      await auth.login(ADMIN.email, ADMIN.password);
      link = ApolloLink.from([auth.link, httpLink]);
    }
    const client = new ApolloClient({ link, cache: new InMemoryCache() });
    cleanup.push(() => client.stop());

    server.expireAllAccessTokens();
    server.resetStats();
    const latencies: number[] = [];
    let failed = 0;
    let firstError: string | undefined;
    const start = performance.now();
    const queries = Array.from({ length: n }, (_, i) => {
      const fired = performance.now();
      return ping(client, i).then(
        () => latencies.push(performance.now() - fired),
        (error: unknown) => {
          latencies.push(performance.now() - fired);
          failed += 1;
          firstError ??= error instanceof Error ? error.message : String(error);
        },
      );
    });
    const outcome = await withTimeout(Promise.all(queries), timeoutMs);
    const wallMs = performance.now() - start;
    const unsettled = outcome === timedOut ? n - latencies.length : 0;
    return {
      chain,
      n,
      refreshCalls: server.stats.refreshCalls,
      reuseDetections: server.stats.reuseDetections,
      failed,
      unsettled,
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      wallMs,
      ...(firstError !== undefined && { firstError }),
    };
  } finally {
    for (const step of cleanup) step();
    await server.close();
  }
}

const CHAIN_LABEL: Record<StormChain, string> = { recipe: '(b) docs recipe', package: '(c) this package' };

/** The storm section of RESULTS.md. */
export function stormMarkdown(rows: readonly StormRow[], timeoutMs: number): string {
  const errors = [
    ...new Set(
      rows.flatMap((row) => (row.firstError ? [`${CHAIN_LABEL[row.chain]}, N = ${row.n}: ${row.firstError}`] : [])),
    ),
  ];
  return [
    '## 2. Storm: N concurrent operations on an expired access token',
    '',
    'A fresh demo server (`createAuthServer()`, 127.0.0.1, port 0) per N and chain; a real `ApolloClient` with ' +
      '`HttpLink` and `InMemoryCache`. Log in as admin@demo.test, `server.expireAllAccessTokens()`, `server.resetStats()`, ' +
      "then N × `client.query({ query: PING, variables: { n: i }, fetchPolicy: 'network-only' })` at once. " +
      `Latency is per operation from fire to settle. Each run is limited to ${timeoutMs / 1000} s; operations still pending then count as unsettled. ` +
      'Goal for (c): exactly 1 refresh and 0 failures for every N. The server counts a reuse once per session: ' +
      'the first reused refresh token revokes the session, and later submissions are refused as revoked.',
    '',
    markdownTable(
      [
        'Chain',
        'N',
        'refresh requests',
        'reuse detections',
        'failed ops',
        'unsettled',
        'p50 ms',
        'p99 ms',
        'wall ms',
        'goal',
      ],
      rows.map((row) => [
        CHAIN_LABEL[row.chain],
        row.n,
        row.refreshCalls,
        row.reuseDetections,
        row.failed,
        row.unsettled,
        fixed(row.p50, 1),
        fixed(row.p99, 1),
        fixed(row.wallMs, 0),
        row.chain === 'package' ? (stormGoalMet(row) ? 'met' : 'NOT met') : '',
      ]),
    ),
    ...(errors.length > 0
      ? ['', 'First failure of each run that had one:', '', ...errors.map((line) => `- ${line}`)]
      : []),
  ].join('\n');
}

/** Whether a storm run met the goal for this package: one refresh, nothing failed or left pending. */
function stormGoalMet(row: StormRow): boolean {
  return row.refreshCalls === 1 && row.failed === 0 && row.unsettled === 0;
}

/** One line per run for stdout. */
export function stormSummary(rows: readonly StormRow[]): string {
  return rows
    .map(
      (row) =>
        `storm ${row.chain.padEnd(7)} N=${String(row.n).padEnd(4)} refreshes ${row.refreshCalls}, reuse ${row.reuseDetections}, ` +
        `failed ${row.failed}, unsettled ${row.unsettled}, p50 ${fixed(row.p50, 1)} ms, p99 ${fixed(row.p99, 1)} ms`,
    )
    .join('\n');
}
