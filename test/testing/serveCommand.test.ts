import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { serveMain, TEST_USERS } from '../../src/testing';
import { parseServeArgs, SERVE_DEFAULTS } from '../../src/testing/serve/parseServeArgs';
import { useCleanups } from '../helpers/overHttp';
import { codes, gql, LOGIN, ME, REQUEST_CODE, SIGN_IN, SIGN_IN_WITH_CODE, VERIFY_SECOND_FACTOR } from './helpers';

const cleanups = useCleanups();
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BIN = 'bin/apollo-link-token-pair.mjs';
// The bin serves from dist/: that run needs a build with serveMain in it (npm run build).
const BUILT =
  existsSync(`${ROOT}dist/testing.js`) && readFileSync(`${ROOT}dist/testing.js`, 'utf8').includes('serveMain');
// A child on this machine may start slowly (tsx compiles the sources first).
const STARTUP = 30_000;

/** What the banner says, read as a person would: the URLs, the users and their passwords, the control routes. */
function readBanner(text: string) {
  const users = [...text.matchAll(/^ {2}(\S+@\S+) \/ (\S+) +(\S+)( \(second factor\))?$/gm)].map(
    ([, email, password, role, secondFactor]) => ({
      email: email!,
      password: password!,
      role: role!,
      secondFactor: secondFactor !== undefined,
    }),
  );
  const routes = [...text.matchAll(/^ {2}(GET|POST) +(http:\/\/\S+)/gm)].map(([, method, url]) => ({
    method: method!,
    url: url!,
  }));
  return {
    url: /GraphQL +(http:\/\/\S+)/.exec(text)?.[1],
    wsUrl: /WebSocket +(ws:\/\/\S+)/.exec(text)?.[1],
    users,
    routes,
  };
}

/** Signs in over HTTP with what the banner printed, and asks `me` with the access token. */
async function signIn(url: string, user: { email: string; password: string }) {
  const { body } = await gql(url, LOGIN, user);
  const pair = body.data?.['loginWithEmailPassword'];
  expect(pair?.accessToken).toEqual(expect.any(String));
  return (await gql(url, ME, undefined, pair.accessToken)).body.data?.['me'];
}

/** The code `serve` printed last for `email`, of `kind` (`sign-in code for ada@example.test: 042917`). */
function printedCode(lines: readonly string[], kind: 'sign-in' | 'second-factor', email: string) {
  const prefix = `${kind} code for ${email}: `;
  return [...lines]
    .reverse()
    .find((line) => line.startsWith(prefix))
    ?.slice(prefix.length);
}

/**
 * Signs in as an account with a second factor over HTTP: `loginWithEmailPassword` refuses it, `signIn` answers a
 * challenge, and the code `serve` printed completes it. Then asks `me`.
 */
async function signInWithSecondFactor(url: string, user: { email: string; password: string }, lines: string[]) {
  expect(codes((await gql(url, LOGIN, user)).body)).toEqual(['SECOND_FACTOR_REQUIRED']);
  const { challenge } = (await gql(url, SIGN_IN, user)).body.data!['signIn'];
  const code = printedCode(lines, 'second-factor', user.email);
  expect(code).toMatch(/^\d{6}$/);
  const { body } = await gql(url, VERIFY_SECOND_FACTOR, { challenge, code });
  return (await gql(url, ME, undefined, body.data?.['verifySecondFactor'].accessToken)).body.data?.['me'];
}

/** Runs serveMain in-process until the returned `stop` aborts it. */
async function serveInProcess(args: string[]) {
  const lines: string[] = [];
  const controller = new AbortController();
  const exit = serveMain(args, {
    out: (text) => lines.push(text),
    err: (text) => lines.push(text),
    signal: controller.signal,
  });
  cleanups.push(() => (controller.abort(), exit));
  await expect.poll(() => lines.join('\n'), { timeout: 5_000 }).toContain('Ctrl+C to stop.');
  return { banner: readBanner(lines.join('\n')), lines, stop: () => (controller.abort(), exit) };
}

/** Spawns `node …args` from the package's root, and resolves once it printed its banner. */
async function spawnServe(args: string[]) {
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  cleanups.push(() => (child.exitCode === null && child.kill('SIGKILL'), exited));
  await expect
    .poll(() => (child.exitCode !== null ? `exited: ${stderr}` : stdout), { timeout: STARTUP, interval: 100 })
    .toContain('Ctrl+C to stop.');
  return { child, exited, banner: readBanner(stdout), output: () => stdout };
}

function runToEnd(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child: ChildProcess = spawn(process.execPath, args, { cwd: ROOT });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (chunk) => (stdout += chunk));
    child.stderr!.on('data', (chunk) => (stderr += chunk));
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('parseServeArgs', () => {
  it.each([
    [[], { options: SERVE_DEFAULTS }],
    [['--port', '0', '--host', '0.0.0.0'], { options: { ...SERVE_DEFAULTS, port: 0, host: '0.0.0.0' } }],
    [['--port=5000', '--access-token-ttl=60'], { options: { ...SERVE_DEFAULTS, port: 5000, accessTokenTtl: 60 } }],
    [['--refresh-token-ttl', '3600'], { options: { ...SERVE_DEFAULTS, refreshTokenTtl: 3600 } }],
    [['--cors', 'http://localhost:5173/'], { options: { ...SERVE_DEFAULTS, cors: 'http://localhost:5173' } }],
    [['--port', '0', '--help'], { help: true }],
    [['-h'], { help: true }],
    [['--prot', '4000'], { error: 'Unknown option --prot.' }],
    [['4000'], { error: 'Unexpected argument 4000.' }],
    [['--port'], { error: '--port needs a value: an integer from 0 to 65535.' }],
    [['--port', '--host', 'x'], { error: '--port needs a value: an integer from 0 to 65535.' }],
    [['--port', '70000'], { error: '--port must be an integer from 0 to 65535; got "70000".' }],
    [['--port', '4e3'], { error: '--port must be an integer from 0 to 65535; got "4e3".' }],
    [
      ['--access-token-ttl', '0'],
      { error: '--access-token-ttl must be a whole number of seconds, 1 or more; got "0".' },
    ],
    [['--cors', 'localhost:5173/app'], { error: expect.stringContaining('--cors must be * or an origin') }],
    [['--port', '1', '--port', '2'], { error: '--port is given twice.' }],
  ])('%j', (args, expected) => {
    expect(parseServeArgs(args)).toEqual(expected);
  });
});

describe('serve, in-process (serveMain)', () => {
  it('prints the URLs, every user with its password and role, and the control routes, each of which answers', async () => {
    const { banner, lines } = await serveInProcess(['--port', '0', '--access-token-ttl', '60']);
    expect(banner.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/graphql$/);
    expect(banner.wsUrl).toBe(banner.url!.replace('http', 'ws'));
    expect(banner.users).toEqual(
      TEST_USERS.map(({ email, password, role, secondFactor }) => ({
        email,
        password,
        role,
        secondFactor: secondFactor === true,
      })),
    );
    for (const user of banner.users) {
      const me = user.secondFactor
        ? await signInWithSecondFactor(banner.url!, user, lines)
        : await signIn(banner.url!, user);
      expect(me).toMatchObject({ email: user.email });
    }
    expect(banner.routes.map(({ method, url }) => `${method} ${new URL(url).pathname}`)).toEqual([
      'POST /control/expire-access-tokens',
      'POST /control/revoke-sessions',
      'POST /control/reset-stats',
      'GET /control/stats',
      'GET /control/codes',
      'POST /control/id-token',
    ]);
    for (const route of banner.routes) {
      const body = route.method === 'POST' ? JSON.stringify({ email: 'ada@example.test' }) : undefined;
      expect((await fetch(route.url, { method: route.method, body })).status).toBe(200);
    }
  });

  it('lists the sign-in doors beyond the contract, and prints each one-time code as a door sends it', async () => {
    const { banner, lines } = await serveInProcess(['--port', '0']);
    const text = lines.join('\n');
    for (const door of ['register', 'requestSignInCode', 'signInWithCode', 'signIn', 'verifySecondFactor']) {
      expect(text).toMatch(new RegExp(`^ {2}.*\\b${door}\\(`, 'm'));
    }
    expect(text).toMatch(/^ {2}signInWithIdToken\(idToken\) +an ID token/m);

    const printed = lines.length;
    await gql(banner.url!, REQUEST_CODE, { email: 'nobody@demo.test' });
    expect(lines.length).toBe(printed);
    await gql(banner.url!, REQUEST_CODE, { email: 'admin@demo.test' });
    expect(lines.slice(printed)).toEqual([expect.stringMatching(/^sign-in code for admin@demo\.test: \d{6}$/)]);

    const code = printedCode(lines, 'sign-in', 'admin@demo.test');
    const { body } = await gql(banner.url!, SIGN_IN_WITH_CODE, { email: 'admin@demo.test', code });
    expect(body.data?.['signInWithCode'].user).toEqual({ id: 'u_admin', email: 'admin@demo.test', role: 'ADMIN' });
    const listed = await (await fetch(banner.url!.replace('/graphql', '/control/codes?email=admin@demo.test'))).json();
    expect(listed.codes).toEqual([expect.objectContaining({ email: 'admin@demo.test', kind: 'sign-in', code })]);
  });

  it('answers with the origin given to --cors', async () => {
    const { banner } = await serveInProcess(['--port', '0', '--cors', 'http://localhost:5173']);
    const preflight = await fetch(banner.url!, { method: 'OPTIONS', headers: { origin: 'http://localhost:5173' } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    expect(preflight.headers.get('access-control-allow-headers')).toContain('authorization');
  });

  it('stops when told, closes the port, and resolves 0', async () => {
    const { banner, lines, stop } = await serveInProcess(['--port', '0']);
    expect(await stop()).toBe(0);
    expect(lines.at(-1)).toBe('Stopped.');
    await expect(fetch(banner.url!, { method: 'POST' })).rejects.toThrow();
  });

  it('a port in use: says so and resolves 1', async () => {
    const { banner } = await serveInProcess(['--port', '0']);
    const errors: string[] = [];
    const port = new URL(banner.url!).port;
    expect(await serveMain(['--port', port], { out: () => {}, err: (text) => errors.push(text) })).toBe(1);
    expect(errors).toEqual([`127.0.0.1:${port} is in use: pick another --port.`]);
  });

  it('--help prints the usage and resolves 0; a bad option names it and resolves 2', async () => {
    const out: string[] = [];
    const err: string[] = [];
    const io = { out: (text: string) => out.push(text), err: (text: string) => err.push(text) };
    expect(await serveMain(['--help'], io)).toBe(0);
    expect(out.join('\n')).toContain('Usage: apollo-link-token-pair serve [--port 4000]');
    expect(await serveMain(['--ttl', '60'], io)).toBe(2);
    expect(err.join('\n')).toMatch(/^Unknown option --ttl\.\n\nUsage: apollo-link-token-pair serve/);
  });
});

describe('serve, as a process', () => {
  it(
    'from the sources (tsx): prints the banner, signs a printed user in, and exits 0 on SIGINT',
    { timeout: STARTUP + 10_000 },
    async () => {
      const entry =
        "const { serveMain } = await import('./src/testing/index.ts'); process.exitCode = await serveMain(process.argv.slice(1));";
      const { child, exited, banner, output } = await spawnServe([
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        entry,
        '--',
        '--port',
        '0',
      ]);
      const admin = banner.users.find((user) => user.role === 'ADMIN')!;
      expect(await signIn(banner.url!, admin)).toMatchObject({ email: admin.email, role: 'ADMIN' });
      child.kill('SIGINT');
      expect(await exited).toBe(0);
      expect(output()).toMatch(/Stopped\.\n$/);
    },
  );

  it('the bin with no command prints a usage naming both commands and exits 2', async () => {
    const { code, stderr } = await runToEnd([BIN]);
    expect(code).toBe(2);
    expect(stderr).toContain('Usage: apollo-link-token-pair <command>');
    expect(stderr).toMatch(/^ {2}serve /m);
    expect(stderr).toMatch(/^ {2}doctor /m);
    const unknown = await runToEnd([BIN, 'srve']);
    expect([unknown.code, unknown.stderr.split('\n')[0]]).toEqual([2, 'Unknown command srve.']);
  });

  it.runIf(BUILT)(
    'the bin (dist/): serve starts, signs a printed user in, and exits 0 on SIGINT; --help and a bad option too',
    { timeout: STARTUP + 10_000 },
    async () => {
      const { child, exited, banner } = await spawnServe([BIN, 'serve', '--port', '0']);
      expect(await signIn(banner.url!, banner.users[0]!)).toMatchObject({ email: banner.users[0]!.email });
      child.kill('SIGINT');
      expect(await exited).toBe(0);
      const help = await runToEnd([BIN, 'serve', '--help']);
      expect([help.code, help.stdout]).toEqual([0, expect.stringContaining('--refresh-token-ttl')]);
      const bad = await runToEnd([BIN, 'serve', '--port', 'x']);
      expect([bad.code, bad.stderr.split('\n')[0]]).toEqual([2, '--port must be an integer from 0 to 65535; got "x".']);
      // doctor is dispatched as before: its own usage when its options are missing.
      const doctor = await runToEnd([BIN, 'doctor']);
      expect([doctor.code, doctor.stderr]).toEqual([2, expect.stringContaining('--uri and --email are required')]);
    },
  );
});
