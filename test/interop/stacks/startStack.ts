import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** This folder. */
export const STACKS_DIR = fileURLToPath(new URL('.', import.meta.url));

/** A spec server on another stack, running as a child process. */
export interface StackServer {
  /** The GraphQL endpoint, `http://127.0.0.1:PORT/graphql`. */
  readonly url: string;
  readonly pid: number;
  /** What the process printed, stdout and stderr, for a failing test's message. */
  readonly output: () => string;
  /** Stops the process by its PID (SIGTERM, then SIGKILL after 2 s) and waits for it to exit. */
  close(): Promise<void>;
}

/** Options of {@link startStack}. */
export interface StackOptions {
  /** The access token's life, in seconds. @defaultValue `900` (the contract's 15 minutes) */
  accessTokenTtl?: number;
}

/** How to run one stack's server: its command, and what must be built or installed first. */
export interface StackCommand {
  readonly command: string;
  readonly args: readonly string[];
  readonly env?: Record<string, string>;
}

/**
 * Starts `stack` on 127.0.0.1 on an ephemeral port and resolves once it printed its URL; rejects with what it
 * printed when it exits first or takes over `timeout` ms.
 */
export async function startStack(
  stack: StackCommand,
  options: StackOptions = {},
  timeout = 30_000,
): Promise<StackServer> {
  const child = spawn(stack.command, [...stack.args], {
    cwd: STACKS_DIR,
    env: {
      ...process.env,
      ...stack.env,
      HOST: '127.0.0.1',
      PORT: '0',
      ACCESS_TOKEN_TTL: String(options.accessTokenTtl ?? 900),
      // No colours, no buffering: the URL line must arrive as soon as it is printed.
      NO_COLOR: '1',
      PYTHONUNBUFFERED: '1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const collect = (chunk: Buffer) => (output += chunk.toString());
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => fail(`did not print its URL within ${timeout} ms`), timeout);
    const fail = (why: string) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`${stack.command} ${stack.args.join(' ')} ${why}:\n${output}`));
    };
    child.on('error', (error) => fail(`could not start (${error.message})`));
    child.on('exit', (code, signal) => fail(`exited (${signal ?? code}) before it listened`));
    child.stdout!.on('data', () => {
      const found = /listening on (http:\/\/127\.0\.0\.1:\d+\/\S*)/.exec(output);
      if (!found) return;
      clearTimeout(timer);
      child.removeAllListeners('exit');
      resolve(found[1]!);
    });
  });
  return { url, pid: child.pid!, output: () => output, close: () => stop(child) };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  process.kill(child.pid!, 'SIGTERM');
  const timer = setTimeout(
    () => child.exitCode === null && child.signalCode === null && process.kill(child.pid!, 'SIGKILL'),
    2_000,
  );
  await exited;
  clearTimeout(timer);
}

/** Whether `command` is on the PATH. */
export function hasCommand(command: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** A fresh folder for build output (the Go binary), outside the repository. */
export function buildDir(): string {
  return mkdtempSync(join(tmpdir(), 'interop-stack-'));
}

/** Whether the Node stacks' packages are installed (`npm run interop:install`). */
export const nodeStacksInstalled = () => existsSync(join(STACKS_DIR, 'node_modules', 'mercurius'));
