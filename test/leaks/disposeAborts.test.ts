import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { startDemoServer, useCleanups } from '../helpers/overHttp';

const SCRIPT = fileURLToPath(new URL('./fixtures/disposeDuringRefresh.ts', import.meta.url));
// The refreshTimeout of the disposed processes: dispose() lets the refresh already sent run to it, no further.
const REFRESH_TIMEOUT_MS = 1_000;
// How long after the server received its refresh the process may take to exit: that timeout, and generous room for
// a busy machine; far below the 30 s the control's refresh would hang for.
const EXIT_BOUND_MS = 5_000;
// Room for tsx, the client and the login before the refresh goes out.
const START_BOUND_MS = 15_000;

const cleanups = useCleanups();

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  /** From the "refresh in flight" line to the exit (or the kill). */
  msAfterRefresh: number | undefined;
  /** Whether the test had to kill it. */
  killed: boolean;
}

/**
 * Runs the fixture under tsx against `uri`, and kills it `EXIT_BOUND_MS` after its first line (the refresh is
 * then in flight), or `START_BOUND_MS` after the start if no line came.
 */
function runScript(uri: string, env: Record<string, string>): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', SCRIPT], {
      cwd: fileURLToPath(new URL('../..', import.meta.url)),
      env: { ...process.env, API_URL: uri, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let killed = false;
    let inFlightAt: number | undefined;
    let bound: ReturnType<typeof setTimeout> | undefined;
    const kill = () => {
      killed = true;
      child.kill('SIGKILL');
    };
    const start = setTimeout(kill, START_BOUND_MS);
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (inFlightAt === undefined && stdout.includes('\n')) {
        inFlightAt = performance.now();
        clearTimeout(start);
        bound = setTimeout(kill, EXIT_BOUND_MS);
      }
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(start);
      clearTimeout(bound);
      const msAfterRefresh = inFlightAt === undefined ? undefined : Math.round(performance.now() - inFlightAt);
      resolve({ code, stdout, stderr, msAfterRefresh, killed });
    });
  });
}

const lines = (stdout: string) =>
  stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);

async function hangingServer() {
  const server = await startDemoServer(cleanups);
  server.faults.hangRefresh = true;
  return server;
}

describe('dispose() aborts an auth call in flight', () => {
  it.each([
    ["the default clock (unref'd timers)", {}],
    ["timers that hold the event loop open, as a browser's do", { CLOCK: 'ref' }],
  ])(
    'on the memory store, a Node process with a refresh that never answers exits within 1 s of dispose(), with a refreshTimeout of 30 s, and the operation waiting on it fails at once, with %s',
    { timeout: 30_000 },
    async (_name, env) => {
      const server = await hangingServer();
      const run = await runScript(server.url, { ...env, REFRESH_TIMEOUT: '30000' });
      console.log(
        `exit after dispose during a hung refresh, memory store (${JSON.stringify(env)}): code ${run.code}, ${run.msAfterRefresh} ms after the server received the refresh`,
      );
      expect(run.stderr).toBe('');
      expect(run.killed).toBe(false);
      expect(run.code).toBe(0);
      expect(run.msAfterRefresh).toBeLessThan(1_000);
      expect(server.stats).toMatchObject({ loginCalls: 1, tokenExpired: 1, refreshCalls: 1, refreshSuccesses: 0 });
      const [inFlight, settled] = lines(run.stdout);
      expect(inFlight).toEqual({ phase: 'refresh in flight' });
      expect(settled).toMatchObject({ phase: 'settled', outcome: 'AuthRequestError: The session was disposed.' });
    },
  );

  it.each([
    ["the default clock (unref'd timers)", { STORE: 'persistent' }],
    ["timers that hold the event loop open, as a browser's do", { CLOCK: 'ref', STORE: 'persistent' }],
  ])(
    'on a persistent store, a Node process with a refresh that never answers exits by itself once that sent refresh times out after dispose(), and the operation waiting on it fails at once, with %s',
    { timeout: 30_000 },
    async (_name, env) => {
      const server = await hangingServer();
      const run = await runScript(server.url, { ...env, REFRESH_TIMEOUT: String(REFRESH_TIMEOUT_MS) });
      console.log(
        `exit after dispose during a hung refresh (${JSON.stringify(env)}): code ${run.code}, ${run.msAfterRefresh} ms after the server received the refresh`,
      );
      expect(run.stderr).toBe('');
      expect(run.killed).toBe(false);
      expect(run.code).toBe(0);
      expect(run.msAfterRefresh).toBeLessThan(EXIT_BOUND_MS);
      // Measured from when the process said the refresh was out, a little after it went out.
      expect(run.msAfterRefresh).toBeGreaterThanOrEqual(REFRESH_TIMEOUT_MS - 100);
      // The refresh reached the server and hung there: nothing but dispose() ended it.
      expect(server.stats).toMatchObject({ loginCalls: 1, tokenExpired: 1, refreshCalls: 1, refreshSuccesses: 0 });
      const [inFlight, settled] = lines(run.stdout);
      expect(inFlight).toEqual({ phase: 'refresh in flight' });
      expect(settled).toMatchObject({ phase: 'settled', outcome: 'AuthRequestError: The session was disposed.' });
      expect(settled!.settledMs).toBeLessThan(1_000);
    },
  );

  it(
    'control: the same process without dispose() and with event-loop-holding timers is still waiting on the refresh at the bound, so the probe above can fail',
    { timeout: 30_000 },
    async () => {
      const server = await hangingServer();
      const run = await runScript(server.url, { CLOCK: 'ref', SKIP_DISPOSE: '1' });
      expect(run.killed).toBe(true);
      expect(run.msAfterRefresh).toBeGreaterThanOrEqual(EXIT_BOUND_MS);
      expect(server.stats.refreshCalls).toBe(1);
      // The operation never settled: the only line is the one printed once the server had the refresh.
      expect(lines(run.stdout)).toEqual([{ phase: 'refresh in flight' }]);
    },
  );
});
