import { describe, expect, it } from 'vitest';
import { HandlerPool, type HandlerEnv } from '../../scripts/soak/HandlerPool';
import type { SoakProcess } from '../../scripts/soak/ChildProcess';

// The soak's pool of token handler instances, with processes that only record what they were started with.
class RecordingPool extends HandlerPool {
  readonly started: Array<{ name: string; env: HandlerEnv }> = [];
  protected override async spawn(name: string, env: HandlerEnv = { ...this.env }) {
    this.started.push({ name, env });
    const process = { running: true, stop: async () => {} } as unknown as SoakProcess;
    return { process, port: 1000 + this.started.length, env };
  }
}

const base: HandlerEnv = { GRAPHQL_URL: 'http://127.0.0.1:1/graphql', TOKEN_HANDLER_SECRET: 's1', REDIS_PORT: '6379' };

// Found by the soak (seed 3, at 977 s): handler B, killed between its step of a rolling deploy and the deploy's
// end, came back with the pool's previous secrets, sealing with one that the next rotation took out of A's ring.
describe('the soak handler pool', () => {
  it('restarts a killed instance with what it was last deployed with, in the middle of a rolling deploy', async () => {
    const pool = new RecordingPool({ ...base });
    await pool.start(['A', 'B']);
    const [a, b] = pool.instances;
    await pool.redeploy(a!, { TOKEN_HANDLER_SECRET: 's2', TOKEN_HANDLER_SECRET_OLD: 's1' });
    await pool.redeploy(b!, { TOKEN_HANDLER_SECRET: 's2', TOKEN_HANDLER_SECRET_OLD: 's1' });
    // The deploy has not reached its last step (setEnv): B crashes now.
    await pool.restart(b!, 0);
    expect(pool.started.at(-1)).toEqual({
      name: 'B',
      env: { ...base, TOKEN_HANDLER_SECRET: 's2', TOKEN_HANDLER_SECRET_OLD: 's1' },
    });
    // The next rotation's first step on A builds on A's own deploy.
    await pool.redeploy(a!, { TOKEN_HANDLER_SECRET: 's2', TOKEN_HANDLER_SECRET_OLD: 's3' });
    expect(pool.started.at(-1)!.env).toMatchObject({ TOKEN_HANDLER_SECRET: 's2', TOKEN_HANDLER_SECRET_OLD: 's3' });
    expect(pool.instances.map((instance) => instance.env.TOKEN_HANDLER_SECRET)).toEqual(['s2', 's2']);
  });
});
