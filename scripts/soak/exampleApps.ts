import { existsSync, readFileSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { SoakProcess } from './ChildProcess.ts';
import { freePort } from '../../test/helpers/redisProcess.ts';

/** The folder of `examples/<name>`. */
const exampleDir = (name: string) => fileURLToPath(new URL(`../../examples/${name}`, import.meta.url));

/** A binary of an example's own dependencies; fails with what to run when they are not installed. */
function exampleBin(name: string, bin: string): string {
  const path = `${exampleDir(name)}/node_modules/.bin/${bin}`;
  if (!existsSync(path)) {
    throw new Error(
      `examples/${name} is not installed: run \`npm run build && npm run examples:install\` at the root first.`,
    );
  }
  return path;
}

/** examples/vite-spa built (its own tsc and vite) for the API at `graphqlUrl`, served by `vite preview`. */
export async function startViteSpa(graphqlUrl: string): Promise<{ process: SoakProcess; origin: string }> {
  const vite = exampleBin('vite-spa', 'vite');
  const build = new SoakProcess('vite-spa build', 'npm', ['run', '--silent', 'build'], {
    cwd: exampleDir('vite-spa'),
    env: { VITE_GRAPHQL_URL: graphqlUrl },
  });
  const code = await build.exited(180_000);
  if (code !== 0) throw new Error(`examples/vite-spa did not build (${code}):\n${build.tail()}`);
  const port = await freePort();
  const preview = new SoakProcess(
    'vite preview',
    vite,
    ['preview', '--host', '127.0.0.1', '--port', String(port), '--strictPort'],
    { cwd: exampleDir('vite-spa') },
  );
  await preview.waitFor(/Local:/, 30_000);
  return { process: preview, origin: `http://127.0.0.1:${port}` };
}

/** The secrets of the token handler's cookie: the one that seals, and during a rotation the old one, which opens too. */
export interface SecretRing {
  readonly secret: string;
  readonly old?: string;
}

/** Where a soak's build of examples/nextjs records the graphql-ws URL it inlined. */
const nextjsWsUrlFile = () => `${exampleDir('nextjs')}/.next/soak-ws-url`;

/**
 * The port of the API's graphql-ws URL that the last soak's build of examples/nextjs inlined, if there is one: with
 * `--reuse-build`, the API's front takes it again (when free) so that the build can be kept.
 */
export function builtNextjsWsPort(): number | undefined {
  try {
    return Number(new URL(readFileSync(nextjsWsUrlFile(), 'utf8').trim()).port) || undefined;
  } catch {
    return undefined;
  }
}

/**
 * examples/nextjs built with `next build` for the API's graphql-ws URL `wsUrl` (`NEXT_PUBLIC_GRAPHQL_WS_URL`, which
 * Next inlines into the browser's bundle: the page subscribes straight to the API) and served by `next start`. With
 * `reuseBuild`, an earlier build for the same `wsUrl` is kept: the API's URL and the secret are read when it
 * starts, not when it is built.
 */
export async function startNextjs(options: {
  graphqlUrl: string;
  wsUrl: string;
  secrets: SecretRing;
  redisUrl: string;
  reuseBuild: boolean;
}): Promise<{ process: SoakProcess; port: number }> {
  const next = exampleBin('nextjs', 'next');
  const dir = exampleDir('nextjs');
  const built =
    existsSync(`${dir}/.next/BUILD_ID`) &&
    existsSync(nextjsWsUrlFile()) &&
    readFileSync(nextjsWsUrlFile(), 'utf8').trim() === options.wsUrl;
  if (!(options.reuseBuild && built)) {
    await rm(`${dir}/.next`, { recursive: true, force: true });
    const env = { NEXT_TELEMETRY_DISABLED: '1', NEXT_PUBLIC_GRAPHQL_WS_URL: options.wsUrl };
    const build = new SoakProcess('next build', next, ['build'], { cwd: dir, env });
    const code = await build.exited(400_000);
    if (code !== 0) throw new Error(`examples/nextjs did not build (${code}):\n${build.tail()}`);
    await writeFile(nextjsWsUrlFile(), `${options.wsUrl}\n`);
  }
  return startNextServer(options.graphqlUrl, options.secrets, options.redisUrl);
}

/**
 * `next start` of the built examples/nextjs on a free port, with the handler's secrets (its proxy opens the
 * cookie with `getServerSession`, and seals it again when it renews: it needs the ring as the handler does) and
 * the handlers' Redis: it can renew a session too, so it shares their rotation cache, as every instance must.
 */
export async function startNextServer(
  graphqlUrl: string,
  secrets: SecretRing,
  redisUrl: string,
): Promise<{ process: SoakProcess; port: number }> {
  const port = await freePort();
  const server = new SoakProcess(
    'next start',
    exampleBin('nextjs', 'next'),
    ['start', '-H', '127.0.0.1', '-p', String(port)],
    {
      cwd: exampleDir('nextjs'),
      env: {
        NEXT_TELEMETRY_DISABLED: '1',
        GRAPHQL_URL: graphqlUrl,
        REDIS_URL: redisUrl,
        TOKEN_HANDLER_SECRET: secrets.secret,
        ...(secrets.old && { TOKEN_HANDLER_SECRET_OLD: secrets.old }),
      },
    },
  );
  await server.waitFor(/Ready in|started server/i, 60_000);
  return { process: server, port };
}
