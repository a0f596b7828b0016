import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { launchChromium } from '../browser';

/** The folder of `examples/<name>`. */
export const exampleDir = (name: string) => join(__dirname, '../../../examples', name);

/** Fails with what to run when an example's dependencies are not installed. */
export function requireInstalled(name: string, bin: string): string {
  const path = join(exampleDir(name), 'node_modules/.bin', bin);
  if (!existsSync(path)) {
    throw new Error(
      `examples/${name} is not installed: run \`npm run build && npm run examples:install\` at the root first.`,
    );
  }
  return path;
}

/** A port free on 127.0.0.1 right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** A child process of a test, its output kept for the failure message, killed by PID at the end. */
export interface Child {
  readonly process: ChildProcess;
  output(): string;
  /** Resolves once `pattern` shows in its output; rejects if it exits first or `timeout` ms pass. */
  waitFor(pattern: RegExp, timeout: number): Promise<void>;
  /** Resolves with its exit code; rejects when `timeout` ms pass. */
  exited(timeout: number): Promise<number | null>;
  kill(): Promise<void>;
}

export function run(
  command: string,
  args: readonly string[],
  options: { cwd: string; env?: Record<string, string> },
): Child {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: { ...process.env, NO_COLOR: '1', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  // Colours off: a tool that colours its output under CI would split the words a test waits for.
  const keep = (chunk: Buffer) => (output += String(chunk).replace(/\x1b\[[0-9;]*m/g, ''));
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const within = <T>(promise: Promise<T>, timeout: number, what: string) =>
    Promise.race([
      promise,
      new Promise<never>((_, reject) =>
        setTimeout(
          () => reject(new Error(`${what} took over ${timeout} ms:\n${output.slice(-3000)}`)),
          timeout,
        ).unref(),
      ),
    ]);
  return {
    process: child,
    output: () => output,
    waitFor(pattern, timeout) {
      const seen = new Promise<void>((resolve, reject) => {
        const look = () => pattern.test(output) && (resolve(), true);
        if (look()) return;
        const onData = () => look() && (child.stdout!.off('data', onData), child.stderr!.off('data', onData));
        child.stdout!.on('data', onData);
        child.stderr!.on('data', onData);
        exit.then((code) =>
          reject(new Error(`${command} ${args.join(' ')} exited (${code}) before ${pattern}:\n${output.slice(-3000)}`)),
        );
      });
      return within(seen, timeout, `waiting for ${pattern}`);
    },
    exited: (timeout) => within(exit, timeout, `${command} ${args.join(' ')}`),
    async kill() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const stopped = await Promise.race([
        exit.then(() => true),
        new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 5000).unref()),
      ]);
      if (!stopped) child.kill('SIGKILL');
    },
  };
}

/**
 * Chromium for the test file, and browser contexts of its own for each test (closed after it), whose pages'
 * console errors and uncaught errors are collected: an example shows none.
 */
export function useChromium() {
  let browser: Browser | undefined;
  const contexts: BrowserContext[] = [];
  beforeAll(async () => {
    browser = await launchChromium();
  }, 60_000);
  afterEach(async () => {
    await Promise.all(contexts.splice(0).map((context) => context.close()));
  });
  afterAll(async () => {
    await browser?.close();
  });
  return {
    async newContext(): Promise<{ context: BrowserContext; errors: string[] }> {
      const context = await browser!.newContext();
      contexts.push(context);
      const errors: string[] = [];
      context.on('console', (message) => message.type() === 'error' && errors.push(`console: ${message.text()}`));
      context.on('weberror', (error) => errors.push(`page: ${error.error().message}`));
      return { context, errors };
    },
  };
}

/**
 * Signs the demo admin in through an example's form, and waits until the page shows the user and `me`. `status`:
 * the test id of the example's signed-in line.
 */
export async function signIn(page: Page, status: string): Promise<void> {
  await page.getByTestId(status).getByText('Signed out').waitFor();
  await page.getByTestId('password').fill('admin-pass');
  await page.getByTestId('sign-in-button').click();
  await page.getByTestId(status).getByText('Signed in as admin@demo.test').waitFor();
  await page.getByTestId('me').getByText('me: admin@demo.test (ADMIN)').waitFor();
}

/**
 * Signs a new account up through an example's sign-up form (its `register` door), and waits until the page shows
 * the new account signed in, with `me` as the test server's role for it. `status`: the test id of the signed-in line.
 */
export async function signUp(page: Page, status: string, email: string): Promise<void> {
  await page.getByTestId(status).getByText('Signed out').waitFor();
  await page.getByTestId('sign-up-email').fill(email);
  await page.getByTestId('sign-up-password').fill('correct horse');
  await page.getByTestId('sign-up-button').click();
  await page.getByTestId(status).getByText(`Signed in as ${email}`).waitFor();
  await page.getByTestId('me').getByText(`me: ${email} (MEMBER)`).waitFor();
}
