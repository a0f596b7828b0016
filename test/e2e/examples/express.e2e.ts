import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestAuthServer, type TestAuthServer } from '../../../src/testing';
import { TEST_USERS } from '../../../src/testing/users';
import { type Child, exampleDir, freePort, requireInstalled, run, signUp, useChromium } from './exampleApp';
import { fatUser } from '../../helpers/fatUser';

// examples/express behind a reverse proxy that hands the app its own Host (127.0.0.1:<app port>) and says in
// X-Forwarded-Host which host the browser used, as nginx, a load balancer or a container's port mapping does.
const dir = exampleDir('express');
const chromium = useChromium();
let api: TestAuthServer;
let app: Child;
let appPort: number;
let proxy: Server;
let proxyPort: number;
// Whether the proxy says which host the browser used; the test of the refusal turns it off.
let forwardHost = true;

beforeAll(async () => {
  const tsx = requireInstalled('express', 'tsx');
  // The server and the page type-check against the real Express and the package as built (the docs include
  // server.ts), and the page is bundled as the example's README says.
  const typecheck = run(requireInstalled('express', 'tsc'), ['-p', '.'], { cwd: dir });
  expect(await typecheck.exited(60_000), typecheck.output()).toBe(0);
  requireInstalled('express', 'esbuild');
  const build = run('npm', ['run', '--silent', 'build'], { cwd: dir });
  expect(await build.exited(60_000), build.output()).toBe(0);
  api = createTestAuthServer({
    users: [...TEST_USERS, fatUser('fat@demo.test', 4000), fatUser('huge@demo.test', 10_000)],
  });
  const graphqlUrl = await api.listen(0, '127.0.0.1');
  appPort = await freePort();
  app = run(tsx, ['server.ts'], {
    cwd: dir,
    env: {
      PORT: String(appPort),
      GRAPHQL_URL: graphqlUrl,
      TOKEN_HANDLER_SECRET: 'an-e2e-secret-of-at-least-32-bytes-long',
    },
  });
  await app.waitFor(/listening on/, 30_000);
  proxy = createServer((req, res) => {
    const headers: Record<string, string | string[] | undefined> = { ...req.headers, host: `127.0.0.1:${appPort}` };
    delete headers['x-forwarded-host'];
    delete headers['x-forwarded-proto'];
    if (forwardHost) Object.assign(headers, { 'x-forwarded-host': req.headers.host, 'x-forwarded-proto': 'http' });
    const upstream = httpRequest(
      { host: '127.0.0.1', port: appPort, method: req.method, path: req.url, headers },
      (answer) => {
        res.writeHead(answer.statusCode!, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxyPort = (proxy.address() as AddressInfo).port;
}, 120_000);

afterEach(() => {
  forwardHost = true;
});

afterAll(async () => {
  await new Promise((resolve) => proxy?.close(resolve));
  await app?.kill();
  await api?.close();
});

async function newPage(): Promise<{ page: Page; context: BrowserContext; errors: string[] }> {
  const { context, errors } = await chromium.newContext();
  return { page: await context.newPage(), context, errors };
}

describe.each(['127.0.0.1', 'localhost'])(
  'examples/express through a proxy that rewrites the host, at http://%s',
  (host) => {
    const url = () => `http://${host}:${proxyPort}/`;

    it('signs in, reloads signed in, and signs out', async () => {
      const { page, context, errors } = await newPage();
      await page.goto(url());
      await page.getByTestId('status').getByText('Signed out').waitFor();
      await page.getByTestId('password').fill('admin-pass');
      await page.getByTestId('sign-in-button').click();
      await page.getByTestId('status').getByText('Signed in as admin@demo.test').waitFor();
      await page.getByTestId('me').getByText('me: admin@demo.test (ADMIN)').waitFor();

      await page.reload();
      await page.getByTestId('status').getByText('Signed in as admin@demo.test').waitFor();
      await page.getByTestId('me').getByText('me: admin@demo.test (ADMIN)').waitFor();

      const loggedOut = page.waitForResponse((response) => new URL(response.url()).pathname === '/auth/logout');
      await page.getByTestId('sign-out').click();
      expect((await loggedOut).status()).toBe(200);
      await page.getByTestId('status').getByText('Signed out').waitFor();
      expect((await context.cookies()).map((cookie) => cookie.name)).not.toContain('__Host-token-pair');
      expect(errors).toEqual([]);
    });

    it('without X-Forwarded-Host the handler sees only the inner host, and refuses the sign-in naming the options', async () => {
      forwardHost = false;
      const { page } = await newPage();
      await page.goto(url());
      await page.getByTestId('status').getByText('Signed out').waitFor();
      await page.getByTestId('password').fill('admin-pass');
      await page.getByTestId('sign-in-button').click();
      const error = page.getByTestId('error');
      await error.getByText(`The origin http://${host}:${proxyPort} is not allowed`).waitFor();
      expect(await error.textContent()).toMatch(
        new RegExp(
          `its own origin to be http://127\\.0\\.0\\.1:${appPort}.*\`origin\`.*\`allowedOrigins\`.*\`trustProxy\``,
        ),
      );
    });

    it('keeps a session whose access token is 4 kB across a reload (the cookie in chunks), and refuses one too large for cookies in words', async () => {
      const { page, context, errors } = await newPage();
      await page.goto(url());
      await page.getByTestId('status').getByText('Signed out').waitFor();
      await page.getByTestId('email').fill('fat@demo.test');
      await page.getByTestId('password').fill('fat-pass');
      await page.getByTestId('sign-in-button').click();
      await page.getByTestId('status').getByText('Signed in as fat@demo.test').waitFor();
      // What Chromium kept: every chunk, none dropped.
      const kept = (await context.cookies()).filter((cookie) => cookie.name.startsWith('__Host-token-pair'));
      expect(kept.map((cookie) => cookie.name).sort()).toEqual(['__Host-token-pair.0', '__Host-token-pair.1']);
      await page.reload();
      await page.getByTestId('status').getByText('Signed in as fat@demo.test').waitFor();
      await page.getByTestId('me').getByText('me: fat@demo.test (Auditor)').waitFor();

      const loggedOut = page.waitForResponse((response) => new URL(response.url()).pathname === '/auth/logout');
      await page.getByTestId('sign-out').click();
      await loggedOut;
      await page.getByTestId('status').getByText('Signed out').waitFor();
      expect((await context.cookies()).filter((cookie) => cookie.name.startsWith('__Host-token-pair'))).toEqual([]);
      expect(errors).toEqual([]);

      await page.getByTestId('email').fill('huge@demo.test');
      await page.getByTestId('password').fill('fat-pass');
      await page.getByTestId('sign-in-button').click();
      await page
        .getByTestId('error')
        .getByText(/does not fit in the 3 cookies a browser keeps for it/)
        .waitFor();
      expect(await page.getByTestId('status').textContent()).toBe('Signed out');
    });
  },
);

describe('examples/express sign-up', () => {
  it("signs a new account up through the handler's register door, and a reload keeps it signed in", async () => {
    const { page, errors } = await newPage();
    await page.goto(`http://127.0.0.1:${proxyPort}/`);
    await signUp(page, 'status', 'new@demo.test');
    await page.reload();
    await page.getByTestId('status').getByText('Signed in as new@demo.test').waitFor();
    await page.getByTestId('me').getByText('me: new@demo.test (MEMBER)').waitFor();
    expect(errors).toEqual([]);
  });
});
