/** What `npm run soak` was asked to do. */
export interface SoakOptions {
  /** How long the workload and the faults run, in minutes. */
  readonly minutes: number;
  /** Seeds the workload's and the faults' random choices: one seed, one run. */
  readonly seed: number;
  /** Where the report goes. */
  readonly out: string;
  /** Keeps examples/nextjs/.next from an earlier `next build` when there is one (for trying the soak again). */
  readonly reuseBuild: boolean;
  /** Writes the run's row into bench/RESULTS.md's soak section. */
  readonly results: boolean;
  /** The lifetime of the API's access tokens, in s: 10 by default, 900 for the contract's. */
  readonly accessTokenTtl: number;
}

/**
 * Reads `--minutes N`, `--seed S`, `--access-token-ttl SECONDS`, `--out DIR`, `--reuse-build` and `--results` from
 * the command line.
 */
export function parseOptions(argv: readonly string[]): SoakOptions {
  const value = (name: string) => {
    const index = argv.indexOf(`--${name}`);
    return index === -1 ? undefined : argv[index + 1];
  };
  const minutes = Number(value('minutes') ?? 10);
  const seed = Number(value('seed') ?? 1);
  if (!(minutes > 0)) throw new Error(`--minutes takes a number of minutes above 0, not ${value('minutes')}`);
  if (!Number.isInteger(seed)) throw new Error(`--seed takes an integer, not ${value('seed')}`);
  const accessTokenTtl = Number(value('access-token-ttl') ?? 10);
  // Whole seconds: the tokens' `exp` and `iat` are.
  if (!(Number.isInteger(accessTokenTtl) && accessTokenTtl > 0))
    throw new Error(`--access-token-ttl takes a whole number of seconds above 0, not ${value('access-token-ttl')}`);
  return {
    minutes,
    seed,
    out: value('out') ?? 'soak-report',
    reuseBuild: argv.includes('--reuse-build'),
    results: argv.includes('--results'),
    accessTokenTtl,
  };
}
