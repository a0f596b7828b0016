import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const EXIT_SCRIPT = fileURLToPath(new URL('./fixtures/exitAfterDispose.ts', import.meta.url));
const HEAP_SCRIPT = fileURLToPath(new URL('./fixtures/heapGrowth.ts', import.meta.url));
// Generous for a process that starts tsx, a server and a client on a busy 2-core machine; a leaked timer of
// the session (12.5 min) or a socket held open would take far longer.
const EXIT_BOUND_MS = 15_000;
// The heap after 100 000 more operations may be this much bigger than after the warm-up: 10 bytes per
// operation, less than any object kept per operation would cost.
const HEAP_GROWTH_BOUND = 1024 * 1024;

interface Run {
  code: number | null;
  ms: number;
  stdout: string;
  stderr: string;
  /** Whether the test had to kill it. */
  killed: boolean;
}

/**
 * Runs `script` under tsx in a child process and waits for it to exit, killing it after `limitMs`, or
 * `graceMs` after it printed its result line.
 */
function runScript(
  script: string,
  options: { env?: Record<string, string>; nodeFlags?: string[]; limitMs: number; graceMs?: number },
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [...(options.nodeFlags ?? []), '--import', 'tsx', script], {
      cwd: fileURLToPath(new URL('../..', import.meta.url)),
      env: { ...process.env, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let killed = false;
    let grace: ReturnType<typeof setTimeout> | undefined;
    const kill = () => {
      killed = true;
      child.kill('SIGKILL');
    };
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (options.graceMs !== undefined && !grace && stdout.includes('\n')) grace = setTimeout(kill, options.graceMs);
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const limit = setTimeout(kill, options.limitMs);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(limit);
      clearTimeout(grace);
      resolve({ code, ms: Math.round(performance.now() - started), stdout, stderr, killed });
    });
  });
}

function lastJsonLine<T>(stdout: string): T {
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as T;
}

describe('nothing is left behind after dispose()', () => {
  it.each([
    ["the default clock (unref'd timers)", {}],
    ["timers that hold the event loop open, as a browser's do", { CLOCK: 'ref' }],
  ])(
    'a Node process that logs in, runs operations, refreshes and disposes exits by itself, with %s',
    { timeout: 30_000 },
    async (_name, env) => {
      const run = await runScript(EXIT_SCRIPT, { env, limitMs: EXIT_BOUND_MS });
      console.log(`exit after dispose (${JSON.stringify(env)}): code ${run.code} in ${run.ms} ms`);
      expect(run.stderr).toBe('');
      expect(run.killed).toBe(false);
      expect(run.code).toBe(0);
      expect(run.ms).toBeLessThan(EXIT_BOUND_MS);
      const { refreshes, resources } = lastJsonLine<{ refreshes: number; resources: string[] }>(run.stdout);
      expect(refreshes).toBe(2);
      expect(resources).not.toContain('Timeout');
    },
  );

  it(
    'control: the same process without dispose() and with event-loop-holding timers does not exit, so the probe above can fail',
    { timeout: 30_000 },
    async () => {
      // The script has done everything but dispose() when it prints; the processes above exit within
      // milliseconds of that line, this one sits on its proactive timer until it is killed.
      const run = await runScript(EXIT_SCRIPT, {
        env: { CLOCK: 'ref', SKIP_DISPOSE: '1' },
        limitMs: EXIT_BOUND_MS,
        graceMs: 1_500,
      });
      expect(run.killed).toBe(true);
      expect(lastJsonLine<{ resources: string[] }>(run.stdout).resources).toContain('Timeout');
    },
  );

  it(
    `100 000 operations through auth.link do not grow the heap by more than ${HEAP_GROWTH_BOUND / 1024} KB`,
    { timeout: 60_000 },
    async () => {
      const run = await runScript(HEAP_SCRIPT, {
        nodeFlags: ['--expose-gc'],
        env: { OPERATIONS: '100000', WARM_UP: '10000' },
        limitMs: 45_000,
      });
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      const figures = lastJsonLine<{
        operations: number;
        refreshes: number;
        failures: number;
        heapAfterWarmUp: number;
        heapAfterRun: number;
        growth: number;
        bytesPerOperation: number;
        seconds: number;
      }>(run.stdout);
      console.log(`heap: ${JSON.stringify(figures)}`);
      expect(figures).toMatchObject({ operations: 100_000, failures: 0 });
      expect(figures.refreshes).toBeGreaterThanOrEqual(100);
      expect(figures.growth).toBeLessThan(HEAP_GROWTH_BOUND);
    },
  );
});
