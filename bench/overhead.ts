import { type ApolloClient, ApolloLink } from '@apollo/client';
import { Observable } from 'rxjs';
import { createTokenAuth } from '../src/index.ts';
import { makePair } from '../test/helpers/jwt.ts';
import { PING } from '../test/helpers/pingClient.ts';
import { createDocsRecipeLink } from './docsRecipe.ts';
import {
  ADMIN,
  createContextClient,
  fixed,
  jsonResponse,
  markdownTable,
  median,
  readGraphqlRequest,
} from './helpers.ts';

/** How the happy-path overhead is measured. */
export interface OverheadOptions {
  rounds: number;
  opsPerRound: number;
  warmupRounds: number;
}

/** µs per operation of one chain, one value per round. */
export interface ChainTiming {
  readonly name: string;
  readonly label: string;
  readonly usPerOp: readonly number[];
}

/** What {@link measureOverhead} found. */
export interface OverheadResult {
  readonly options: OverheadOptions;
  readonly chains: readonly [ChainTiming, ChainTiming, ChainTiming];
}

const RESULT = { data: { ping: 1 } };

// The terminating links' answer: RESULT, synchronously.
const answer = () =>
  new Observable<ApolloLink.Result>((observer) => {
    observer.next(RESULT);
    observer.complete();
  });

/**
 * Measures the happy-path cost per operation of (a) a terminating link alone, (b) the Apollo docs recipe and
 * (c) `auth.link`, interleaved round by round so that drift hits all three alike.
 */
export async function measureOverhead(options: OverheadOptions): Promise<OverheadResult> {
  const login = makePair('a1');
  const auth = createTokenAuth({
    uri: 'http://bench.invalid/graphql',
    fetch: async (_input, init) => {
      const { query } = readGraphqlRequest(init);
      if (!query.includes('loginWithEmailPassword')) return jsonResponse({ errors: [{ message: 'unexpected' }] });
      return jsonResponse({
        data: { loginWithEmailPassword: { ...login, user: { id: 'u_admin', email: ADMIN.email, role: 'ADMIN' } } },
      });
    },
  });
  await auth.login(ADMIN.email, ADMIN.password);
  await auth.getAccessToken();
  const client = createContextClient();
  const buildChains = (terminating: ApolloLink) =>
    [
      { name: 'a', label: 'terminating link alone', link: terminating, usPerOp: [] as number[] },
      {
        name: 'b',
        label: 'docs recipe (ErrorLink + SetContextLink)',
        link: createDocsRecipeLink(
          { ...login, refresh: () => Promise.reject(new Error('the happy path never refreshes')) },
          terminating,
        ),
        usPerOp: [] as number[],
      },
      {
        name: 'c',
        label: 'auth.link (this package)',
        link: ApolloLink.from([auth.link, terminating]),
        usPerOp: [] as number[],
      },
    ] as const;

  try {
    await checkHeaders(buildChains, login.accessToken, client);
    const chains = buildChains(new ApolloLink(answer));
    for (let round = 0; round < options.warmupRounds; round++) {
      for (const chain of chains) await runRound(chain.link, options.opsPerRound, client);
    }
    for (let round = 0; round < options.rounds; round++) {
      for (const chain of chains) {
        const ms = await runRound(chain.link, options.opsPerRound, client);
        chain.usPerOp.push((ms * 1000) / options.opsPerRound);
      }
    }
    const [a, b, c] = chains.map(({ name, label, usPerOp }) => ({ name, label, usPerOp }));
    return { options, chains: [a!, b!, c!] };
  } finally {
    auth.dispose();
    client.stop();
  }
}

// A benchmark of a chain that does not attach the token would measure nothing: check (b) and (c) once first.
async function checkHeaders(
  buildChains: (terminating: ApolloLink) => ReadonlyArray<{ name: string; link: ApolloLink }>,
  accessToken: string,
  client: ApolloClient,
): Promise<void> {
  const seen: Array<string | undefined> = [];
  const recording = new ApolloLink((operation) => {
    seen.push((operation.getContext().headers as Record<string, string> | undefined)?.['authorization']);
    return answer();
  });
  for (const { name, link } of buildChains(recording)) {
    seen.length = 0;
    await runRound(link, 1, client);
    const expected = name === 'a' ? undefined : `Bearer ${accessToken}`;
    if (seen[0] !== expected) throw new Error(`chain (${name}) sent authorization ${seen[0]}, expected ${expected}`);
  }
}

// Fires `count` operations back to back and resolves the ms until the last one completed.
function runRound(link: ApolloLink, count: number, client: ApolloClient): Promise<number> {
  return new Promise((resolve, reject) => {
    let done = 0;
    const observer = {
      complete() {
        if (++done === count) resolve(performance.now() - start);
      },
      error: reject,
    };
    const start = performance.now();
    for (let i = 0; i < count; i++) ApolloLink.execute(link, { query: PING }, { client }).subscribe(observer);
  });
}

/** The ratios the issue asks for, from the medians. */
function overheadRatios({ chains: [a, b, c] }: OverheadResult) {
  const [ma, mb, mc] = [median(a.usPerOp), median(b.usPerOp), median(c.usPerOp)];
  return { cb: mc / mb, ca: mc / ma, ba: mb / ma };
}

/** The overhead section of RESULTS.md. */
export function overheadMarkdown(result: OverheadResult): string {
  const { options, chains } = result;
  const ratios = overheadRatios(result);
  const rows = chains.map(({ name, label, usPerOp }) => [
    `(${name}) ${label}`,
    fixed(median(usPerOp), 3),
    fixed(Math.min(...usPerOp), 3),
    fixed(Math.max(...usPerOp), 3),
  ]);
  return [
    '## 1. Happy-path overhead per operation',
    '',
    `${options.rounds} rounds × ${options.opsPerRound.toLocaleString('en')} operations per chain, rounds interleaved a, b, c, a, b, c …, ` +
      `after ${options.warmupRounds} warm-up rounds of each. Each operation is \`ApolloLink.execute(link, { query }, { client })\` ` +
      'subscribed and counted on `complete`; the terminating link emits `{ data: { ping: 1 } }` synchronously. ' +
      "The recipe's `SetContextLink` forwards after a promise chain, so (b) completes in microtasks while (a) and (c) complete synchronously; " +
      'a round ends when its last operation completes.',
    '',
    markdownTable(['Chain', 'median µs/op', 'min µs/op', 'max µs/op'], rows),
    '',
    markdownTable(
      ['Ratio (medians)', 'value', 'goal'],
      [
        ['c / b', fixed(ratios.cb, 2), `≤ 1.10 (${ratios.cb <= 1.1 ? 'met' : 'NOT met'})`],
        ['c / a', fixed(ratios.ca, 2), ''],
        ['b / a', fixed(ratios.ba, 2), ''],
      ],
    ),
  ].join('\n');
}

/** One line per chain for stdout. */
export function overheadSummary(result: OverheadResult): string {
  const ratios = overheadRatios(result);
  const medians = result.chains.map(({ name, usPerOp }) => `${name} ${fixed(median(usPerOp), 3)} µs/op`).join(', ');
  return `overhead: ${medians}; c/b ${fixed(ratios.cb, 2)} (goal ≤ 1.10), c/a ${fixed(ratios.ca, 2)}, b/a ${fixed(ratios.ba, 2)}`;
}
