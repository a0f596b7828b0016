/** What `apollo-link-token-pair serve` runs with, every option settled. */
export interface ServeOptions {
  port: number;
  host: string;
  /** Seconds. */
  accessTokenTtl: number;
  /** Seconds. */
  refreshTokenTtl: number;
  /** `'*'` or one origin. */
  cors: string;
}

/** The command line read: options to serve with, a request for help, or what is wrong with it. */
export type ServeArgs = { options: ServeOptions } | { help: true } | { error: string };

/** The spec's lifetimes, and a port a front-end dev server does not take. */
export const SERVE_DEFAULTS: Readonly<ServeOptions> = {
  port: 4000,
  host: '127.0.0.1',
  accessTokenTtl: 900,
  refreshTokenTtl: 2_592_000,
  cors: '*',
};

const FLAGS: Record<
  string,
  { key: keyof ServeOptions; read(value: string): number | string | undefined; expects: string }
> = {
  '--port': { key: 'port', read: (value) => integer(value, 0, 65_535), expects: 'an integer from 0 to 65535' },
  '--host': { key: 'host', read: (value) => value || undefined, expects: 'a host name or address' },
  '--access-token-ttl': {
    key: 'accessTokenTtl',
    read: (value) => integer(value, 1),
    expects: 'a whole number of seconds, 1 or more',
  },
  '--refresh-token-ttl': {
    key: 'refreshTokenTtl',
    read: (value) => integer(value, 1),
    expects: 'a whole number of seconds, 1 or more',
  },
  '--cors': { key: 'cors', read: corsOrigin, expects: '* or an origin such as http://localhost:5173' },
};

/**
 * Reads the arguments of `serve` (after the command's name): `--name value` or `--name=value`, each flag once.
 * `['--port', '0']` gives the defaults with port 0; `['--prot', '0']` gives `{ error: 'Unknown option --prot.' }`.
 */
export function parseServeArgs(args: readonly string[]): ServeArgs {
  const options: ServeOptions = { ...SERVE_DEFAULTS };
  const seen = new Set<string>();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--help' || arg === '-h') return { help: true };
    if (!arg.startsWith('-')) return { error: `Unexpected argument ${arg}.` };
    const equals = arg.indexOf('=');
    const name = equals < 0 ? arg : arg.slice(0, equals);
    const flag = FLAGS[name];
    if (!flag) return { error: `Unknown option ${name}.` };
    if (seen.has(name)) return { error: `${name} is given twice.` };
    seen.add(name);
    const value = equals < 0 ? args[++i] : arg.slice(equals + 1);
    if (value === undefined || (equals < 0 && value.startsWith('--')))
      return { error: `${name} needs a value: ${flag.expects}.` };
    const read = flag.read(value);
    if (read === undefined) return { error: `${name} must be ${flag.expects}; got ${JSON.stringify(value)}.` };
    (options as unknown as Record<string, number | string>)[flag.key] = read;
  }
  return { options };
}

function integer(value: string, min: number, max = Number.MAX_SAFE_INTEGER): number | undefined {
  const number = /^\d+$/.test(value) ? Number(value) : NaN;
  return number >= min && number <= max ? number : undefined;
}

// An origin is what a browser sends in `Origin`: scheme, host and port, no path.
function corsOrigin(value: string): string | undefined {
  if (value === '*') return value;
  try {
    const { origin } = new URL(value);
    return origin !== 'null' && origin === value.replace(/\/$/, '') ? origin : undefined;
  } catch {
    return undefined;
  }
}
