import { createTestAuthServer } from '../createTestAuthServer';
import { formatServeBanner, formatSignInCode } from './formatServeBanner';
import { parseServeArgs, SERVE_DEFAULTS } from './parseServeArgs';

// A function, so that a bundle without serveMain drops the text.
const usage =
  () => `Usage: apollo-link-token-pair serve [--port ${SERVE_DEFAULTS.port}] [--host ${SERVE_DEFAULTS.host}] [--access-token-ttl ${SERVE_DEFAULTS.accessTokenTtl}]
                                    [--refresh-token-ttl ${SERVE_DEFAULTS.refreshTokenTtl}] [--cors ORIGIN|*]

Starts the package's spec test server, a GraphQL API that implements the token-pair contract, for developing an
app against: seeded users, the spec's lifetimes unless told otherwise, control routes to expire or revoke every
session, and the sign-in doors of real APIs beyond the contract (sign-up, a code by e-mail, a second factor, an ID
token), whose codes it prints. For development only: its keys live in memory, and its sessions end when it stops.

  --port               port to listen on; 0 picks a free one          (default ${SERVE_DEFAULTS.port})
  --host               address to listen on                           (default ${SERVE_DEFAULTS.host})
  --access-token-ttl   access token lifetime, seconds                 (default ${SERVE_DEFAULTS.accessTokenTtl}: 15 min)
  --refresh-token-ttl  refresh token lifetime, seconds                (default ${SERVE_DEFAULTS.refreshTokenTtl}: 30 days)
  --cors               access-control-allow-origin of every answer    (default *)`;

/** Where {@link serveMain} writes, and what stops it. */
export interface ServeIo {
  /** @defaultValue a line on stdout */
  out?: (text: string) => void;
  /** @defaultValue a line on stderr */
  err?: (text: string) => void;
  /** Stops the server when aborted. @defaultValue SIGINT or SIGTERM of this process */
  signal?: AbortSignal;
}

/**
 * Runs `apollo-link-token-pair serve …` (`args` after the command's name): starts {@link createTestAuthServer} over
 * HTTP, prints its URLs, users, sign-in doors and control routes, and serves until stopped, printing each one-time
 * code a door sends (`sign-in code for ada@example.test: 042917`). Resolves the exit code: `0` once
 * stopped, `1` when it cannot listen, `2` for a bad command line.
 *
 * @example
 * ```ts
 * const stop = new AbortController();
 * const exit = serveMain(['--port', '0'], { signal: stop.signal });
 * stop.abort();
 * await exit; // 0
 * ```
 */
export async function serveMain(args: readonly string[], io: ServeIo = {}): Promise<number> {
  const out = io.out ?? ((text: string) => process.stdout.write(`${text}\n`));
  const err = io.err ?? ((text: string) => process.stderr.write(`${text}\n`));
  const parsed = parseServeArgs(args);
  if ('help' in parsed) return (out(usage()), 0);
  if ('error' in parsed) return (err(`${parsed.error}\n\n${usage()}`), 2);
  const { options } = parsed;
  const server = createTestAuthServer({
    accessTokenTtl: options.accessTokenTtl,
    refreshTokenTtl: options.refreshTokenTtl,
    corsOrigin: options.cors,
    onCode: (code) => out(formatSignInCode(code)),
  });
  try {
    await server.listen(options.port, options.host);
  } catch (failure) {
    await server.close();
    const code = (failure as { code?: string }).code;
    const where = `${options.host}:${options.port}`;
    err(
      code === 'EADDRINUSE'
        ? `${where} is in use: pick another --port.`
        : `Cannot listen on ${where}: ${String(failure)}`,
    );
    return 1;
  }
  const stopped = io.signal ?? processSignal();
  out(formatServeBanner({ url: server.url, wsUrl: server.wsUrl, users: server.users, options }));
  if (!stopped.aborted) await new Promise((resolve) => stopped.addEventListener('abort', resolve, { once: true }));
  await server.close();
  out('Stopped.');
  return 0;
}

// Aborts on the first SIGINT or SIGTERM, and then leaves both to Node again.
function processSignal(): AbortSignal {
  const controller = new AbortController();
  const stop = () => {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    controller.abort();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  return controller.signal;
}
