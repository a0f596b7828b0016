import { fileURLToPath } from 'node:url';
import { SoakProcess } from './ChildProcess.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** One token handler process, the port it listens on, and what it was deployed with. */
export interface HandlerInstance {
  readonly name: string;
  process: SoakProcess;
  port: number;
  env: HandlerEnv;
}

/** What an instance is started with; `TOKEN_HANDLER_SECRET_OLD` during a rotation (the ring: new, old). */
export interface HandlerEnv {
  GRAPHQL_URL: string;
  TOKEN_HANDLER_SECRET: string;
  TOKEN_HANDLER_SECRET_OLD?: string;
  REDIS_PORT: string;
}

/** The token handler's instances (two), each a process of `handlerInstance.ts`, sharing one Redis. */
export class HandlerPool {
  readonly instances: HandlerInstance[] = [];

  constructor(
    protected readonly env: HandlerEnv,
    /** Each `[handler]` line an instance prints: its upstream refreshes and the errors it reports. */
    private readonly onLine: (line: string) => void = () => {},
  ) {}

  async start(names: readonly string[]): Promise<void> {
    for (const name of names) this.instances.push({ name, ...(await this.spawn(name)) });
  }

  /** The instances that run now. */
  get live(): HandlerInstance[] {
    return this.instances.filter((instance) => instance.process.running);
  }

  /**
   * SIGKILLs `instance`, waits `downMs`, and starts it again (on a new port, as a new container would), with what
   * it was last deployed with: a crashed container comes back with its own deploy's secrets, not the pool's. In
   * the middle of a rolling deploy the pool's are the previous step's (the soak, seed 3, at 977 s: B, killed after
   * its redeploy, came back sealing with a secret that the next rotation took out of A's ring).
   */
  restart(instance: HandlerInstance, downMs: number): Promise<void> {
    return this.inTurn(instance, async () => {
      await instance.process.stop('SIGKILL');
      await new Promise((resolve) => setTimeout(resolve, downMs));
      Object.assign(instance, await this.spawn(instance.name, instance.env));
    });
  }

  /**
   * A deploy of `instance` with `env` changed (a rolling deploy's step): the new process starts and takes the
   * instance's place once it listens, then the old one is stopped (SIGTERM). Instances started later get `env` too.
   */
  redeploy(instance: HandlerInstance, env: Partial<HandlerEnv>): Promise<void> {
    return this.inTurn(instance, async () => {
      const fresh = await this.spawn(instance.name, { ...instance.env, ...env });
      const old = instance.process;
      Object.assign(instance, fresh);
      await old.stop();
    });
  }

  // One change of an instance at a time: a restart and a deploy that overlap would each start a process, and the
  // one replaced in between would run on, out of the pool, never stopped.
  private readonly turns = new Map<string, Promise<unknown>>();
  private inTurn(instance: HandlerInstance, change: () => Promise<void>): Promise<void> {
    const run = (this.turns.get(instance.name) ?? Promise.resolve()).then(change);
    this.turns.set(
      instance.name,
      run.catch(() => {}),
    );
    return run;
  }

  /** What instances are started with from now on (a restart after a redeploy keeps the deploy's secrets). */
  setEnv(env: Partial<HandlerEnv>): void {
    Object.assign(this.env, env);
  }

  async stop(): Promise<void> {
    await Promise.all(this.instances.map((instance) => instance.process.stop()));
  }

  /** Starts the process of instance `name` with `env`. */
  protected async spawn(
    name: string,
    env: HandlerEnv = { ...this.env },
  ): Promise<{ process: SoakProcess; port: number; env: HandlerEnv }> {
    // Node itself with tsx's loader, not the tsx command: that one runs the script in a child, which a SIGKILL of
    // its PID would leave running.
    const process = new SoakProcess(
      `token handler ${name}`,
      globalThis.process.execPath,
      ['--import', 'tsx', 'scripts/soak/handlerInstance.ts'],
      {
        cwd: ROOT,
        env: {
          HANDLER_NAME: name,
          ...Object.fromEntries(
            Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined),
          ),
        },
      },
    );
    process.onLine(/^\[handler\] /, (line) => this.onLine(line.slice('[handler] '.length)));
    const match = await process.waitFor(/listening on port (\d+)/, 30_000);
    return { process, port: Number(match[1]), env };
  }
}
