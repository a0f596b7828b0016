import { type ChildProcess, spawn } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';

// `npm run demo` as a person runs it, in a child process: `node --import tsx demo/main.ts` is one process, stopped
// by its PID.
const children: ChildProcess[] = [];
const holders: Server[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    // Bounded: a demo that does not stop on SIGTERM within 5 s is killed.
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
  await Promise.all(holders.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

/** Holds `port` on 127.0.0.1 (0: any free one); resolves the port held, or `undefined` when it is taken already. */
function hold(port: number): Promise<number | undefined> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(undefined));
    server.listen(port, '127.0.0.1', () => {
      holders.push(server);
      resolve((server.address() as { port: number }).port);
    });
  });
}

/** Starts the demo with `env`; resolves what it printed once it printed `until` or exited (within 30 s). */
function startDemo(
  env: Record<string, string>,
  until: RegExp,
): Promise<{ stdout: string; stderr: string; code: number | null }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'demo/main.ts'], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let stdout = '';
  let stderr = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`The demo printed nothing like ${until} in 30 s:\n${stdout}\n${stderr}`)),
      30_000,
    );
    const done = (code: number | null) => {
      clearTimeout(timer);
      resolve({ stdout, stderr, code });
    };
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk;
      if (until.test(stdout)) done(null);
    });
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk));
    child.once('exit', (code) => done(code));
  });
}

describe('npm run demo and its port', () => {
  it('takes the next free port when 5173 is taken, and prints the URL it serves', async () => {
    // Held here, or by someone else on this machine: taken either way.
    await hold(5173);
    const { stdout, code } = await startDemo({ PORT: '' }, /Demo ready: open (\S+)/);
    expect(code).toBeNull();
    const url = /➜ {2}Local: {3}(http:\/\/\S+)/.exec(stdout)?.[1];
    expect(url, stdout).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    expect(new URL(url!).port).not.toBe('5173');
    const page = await fetch(url!);
    expect(await page.text()).toContain('<title>apollo-link-token-pair demo</title>');
  }, 40_000);

  it('takes PORT exactly, and says in one line when it is taken', async () => {
    const port = (await hold(0))!;
    const { stdout, stderr, code } = await startDemo({ PORT: String(port) }, /Demo ready/);
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(
      stderr
        .trim()
        .split('\n')
        .filter((line) => !/^npm warn/.test(line)),
    ).toEqual([
      `Port ${port} is already in use: stop what runs there, set PORT to a free port, or leave PORT unset for the next free one.`,
    ]);
  }, 40_000);
});
