import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { SoakProcess } from './ChildProcess.ts';
import { freePort } from '../../test/helpers/redisProcess.ts';

/** The folder of `examples/<name>`. */
const exampleDir = (name: string) => fileURLToPath(new URL(`../../examples/${name}`, import.meta.url));

/** A binary of an example's own dependencies; fails with what to run when they are not installed. */
function exampleBin(name: string, bin: string): string {
  const path = `${exampleDir(name)}/node_modules/.bin/${bin}`;
  if (!existsSync(path)) {
    throw new Error(`examples/${name} is not installed: run \`npm run build && npm run examples:install\` at the root first.`);
  }
  return path;
}

/** examples/vite-spa built (its own tsc and vite) for the API at `graphqlUrl`, served by `vite preview`. */
export async function startViteSpa(graphqlUrl: string): Promise<{ process: SoakProcess; origin: string }> {
  const vite = exampleBin('vite-spa', 'vite');
  const build = new SoakProcess('vite-spa build', 'npm', ['run', '--silent', 'build'], { cwd: exampleDir('vite-spa'), env: { VITE_GRAPHQL_URL: graphqlUrl } });
  const code = await build.exited(180_000);
  if (code !== 0) throw new Error(`examples/vite-spa did not build (${code}):\n${build.tail()}`);
  const port = await freePort();
  const preview = new SoakProcess('vite preview', vite, ['preview', '--host', '127.0.0.1', '--port', String(port), '--strictPort'], { cwd: exampleDir('vite-spa') });
  await preview.waitFor(/Local:/, 30_000);
  return { process: preview, origin: `http://127.0.0.1:${port}` };
}

/** The secrets of the token handler's cookie: the one that seals, and during a rotation the old one, which opens too. */
export interface SecretRing {
  readonly secret: string;
  readonly old?: string;
}

/**
 * examples/nextjs built with `next build` (kept from an earlier run when `reuseBuild` and there is one: the API's
 * URL and the secret are read when it starts, not when it is built) and served by `next start`.
 */
export async function startNextjs(options: { graphqlUrl: string; secrets: SecretRing; reuseBuild: boolean }): Promise<{ process: SoakProcess; port: number }> {
  const next = exampleBin('nextjs', 'next');
  const dir = exampleDir('nextjs');
  const env = { NEXT_TELEMETRY_DISABLED: '1' };
  if (!(options.reuseBuild && existsSync(`${dir}/.next/BUILD_ID`))) {
    await rm(`${dir}/.next`, { recursive: true, force: true });
    const build = new SoakProcess('next build', next, ['build'], { cwd: dir, env });
    const code = await build.exited(400_000);
    if (code !== 0) throw new Error(`examples/nextjs did not build (${code}):\n${build.tail()}`);
  }
  return startNextServer(options.graphqlUrl, options.secrets);
}

/**
 * `next start` of the built examples/nextjs on a free port, with the handler's secrets (its proxy opens the
 * cookie with `getServerSession`, and seals it again when it renews: it needs the ring as the handler does).
 */
export async function startNextServer(graphqlUrl: string, secrets: SecretRing): Promise<{ process: SoakProcess; port: number }> {
  const port = await freePort();
  const server = new SoakProcess('next start', exampleBin('nextjs', 'next'), ['start', '-H', '127.0.0.1', '-p', String(port)], {
    cwd: exampleDir('nextjs'),
    env: {
      NEXT_TELEMETRY_DISABLED: '1',
      GRAPHQL_URL: graphqlUrl,
      TOKEN_HANDLER_SECRET: secrets.secret,
      ...(secrets.old && { TOKEN_HANDLER_SECRET_OLD: secrets.old }),
    },
  });
  await server.waitFor(/Ready in|started server/i, 60_000);
  return { process: server, port };
}
