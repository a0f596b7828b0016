import { type ChildProcess as NodeChild, spawn } from 'node:child_process';

/** A process the soak started: its output kept for error messages, stopped by its PID. */
export class SoakProcess {
  readonly process: NodeChild;
  private output = '';
  private readonly exit: Promise<number | null>;

  constructor(
    readonly name: string,
    command: string,
    args: readonly string[],
    options: { cwd: string; env?: Record<string, string> },
  ) {
    this.process = spawn(command, args, {
      cwd: options.cwd,
      env: { ...process.env, NO_COLOR: '1', ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const keep = (chunk: Buffer) => {
      // Colours off: a tool that colours its output would split the words waited for.
      this.output = (this.output + String(chunk).replace(/\x1b\[[0-9;]*m/g, '')).slice(-20_000);
    };
    this.process.stdout!.on('data', keep);
    this.process.stderr!.on('data', keep);
    this.exit = new Promise((resolve) => this.process.once('exit', (code) => resolve(code)));
  }

  get pid(): number | undefined {
    return this.process.pid;
  }

  get running(): boolean {
    return this.process.exitCode === null && this.process.signalCode === null;
  }

  /** Calls `listener` with each line of its standard output that matches `pattern`, from now on. */
  onLine(pattern: RegExp, listener: (line: string) => void): void {
    let rest = '';
    this.process.stdout!.on('data', (chunk: Buffer) => {
      const lines = (rest + String(chunk)).split('\n');
      rest = lines.pop()!;
      for (const line of lines) if (pattern.test(line)) listener(line);
    });
  }

  /** The last of its output. */
  tail(chars = 3000): string {
    return this.output.slice(-chars);
  }

  /** Resolves with the first match of `pattern` in its output; rejects if it exits first or `timeout` ms pass. */
  waitFor(pattern: RegExp, timeout: number): Promise<RegExpExecArray> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => done(new Error(`${this.name}: no ${pattern} within ${timeout} ms:\n${this.tail()}`)),
        timeout,
      );
      const look = () => {
        const match = pattern.exec(this.output);
        if (match) done(undefined, match);
      };
      const done = (error?: Error, match?: RegExpExecArray) => {
        clearTimeout(timer);
        this.process.stdout!.off('data', look);
        this.process.stderr!.off('data', look);
        if (error) reject(error);
        else resolve(match!);
      };
      this.process.stdout!.on('data', look);
      this.process.stderr!.on('data', look);
      void this.exit.then((code) =>
        done(new Error(`${this.name} exited (${code}) before ${pattern}:\n${this.tail()}`)),
      );
      look();
    });
  }

  /** Resolves with its exit code; rejects when `timeout` ms pass. */
  exited(timeout: number): Promise<number | null> {
    return Promise.race([
      this.exit,
      new Promise<never>((_, reject) =>
        setTimeout(
          () => reject(new Error(`${this.name} still running after ${timeout} ms:\n${this.tail()}`)),
          timeout,
        ).unref(),
      ),
    ]);
  }

  /** Sends `signal` to its PID and waits for it to exit (SIGKILL after 5 s). */
  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    if (!this.running) return;
    this.process.kill(signal);
    const stopped = await Promise.race([
      this.exit.then(() => true),
      new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 5000).unref()),
    ]);
    if (!stopped) {
      this.process.kill('SIGKILL');
      await this.exit;
    }
  }
}
