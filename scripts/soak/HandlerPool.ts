import { fileURLToPath } from 'node:url';
import { SoakProcess } from './ChildProcess.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** One token handler process, and the port it listens on. */
export interface HandlerInstance {
  readonly name: string;
  process: SoakProcess;
  port: number;
}

/** The token handler's instances (two), each a process of `handlerInstance.ts`, sharing one Redis. */
export class HandlerPool {
  readonly instances: HandlerInstance[] = [];

  constructor(private readonly env: { GRAPHQL_URL: string; TOKEN_HANDLER_SECRET: string; REDIS_PORT: string }) {}

  async start(names: readonly string[]): Promise<void> {
    for (const name of names) this.instances.push({ name, ...(await this.spawn(name)) });
  }

  /** The instances that run now. */
  get live(): HandlerInstance[] {
    return this.instances.filter((instance) => instance.process.running);
  }

  /** SIGKILLs `instance`, waits `downMs`, and starts it again (on a new port, as a new container would). */
  async restart(instance: HandlerInstance, downMs: number): Promise<void> {
    await instance.process.stop('SIGKILL');
    await new Promise((resolve) => setTimeout(resolve, downMs));
    Object.assign(instance, await this.spawn(instance.name));
  }

  async stop(): Promise<void> {
    await Promise.all(this.instances.map((instance) => instance.process.stop()));
  }

  private async spawn(name: string): Promise<{ process: SoakProcess; port: number }> {
    // Node itself with tsx's loader, not the tsx command: that one runs the script in a child, which a SIGKILL of
    // its PID would leave running.
    const process = new SoakProcess(`token handler ${name}`, globalThis.process.execPath, ['--import', 'tsx', 'scripts/soak/handlerInstance.ts'], { cwd: ROOT, env: this.env });
    const match = await process.waitFor(/listening on port (\d+)/, 30_000);
    return { process, port: Number(match[1]) };
  }
}
