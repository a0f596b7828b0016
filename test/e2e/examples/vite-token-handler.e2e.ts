import type { Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestAuthServer, type TestAuthServer } from '../../../src/testing';
import { type Child, exampleDir, freePort, requireInstalled, run, signIn, useChromium } from './exampleApp';

// examples/vite-token-handler, type-checked and built with its own tsc and vite, then run twice: as a developer
// runs it (`vite`, the token handler in Vite's server through tokenHandlerPlugin.ts) and as it is deployed
// (`tsx server.ts`: dist/ and the token handler on node:http). The page calls the package's test server directly.
const dir = exampleDir('vite-token-handler');
const chromium = useChromium();
const SECRET = 'an-e2e-secret-that-must-never-reach-the-page';
let api: TestAuthServer;
let graphqlUrl: string;

beforeAll(async () => {
  requireInstalled('vite-token-handler', 'vite');
  api = createTestAuthServer();
  graphqlUrl = await api.listen(0, '127.0.0.1');
  const build = run('npm', ['run', '--silent', 'build'], { cwd: dir, env: { VITE_GRAPHQL_URL: graphqlUrl } });
  expect(await build.exited(120_000), build.output()).toBe(0);
}, 180_000);

afterAll(async () => {
  await api?.close();
});

/** How each mode starts the app on `port`: Vite's dev server, or the production server (which reads PORT). */
const servers: Record<'development' | 'production', (port: number) => { command: string; args: string[] }> = {
  development: (port) => ({
    command: requireInstalled('vite-token-handler', 'vite'),
    args: ['--host', '127.0.0.1', '--port', String(port), '--strictPort'],
  }),
  production: () => ({ command: requireInstalled('vite-token-handler', 'tsx'), args: ['server.ts'] }),
};

describe.each(Object.keys(servers) as Array<keyof typeof servers>)('examples/vite-token-handler in %s', (mode) => {
  let app: Child;
  let url: string;

  beforeAll(async () => {
    const port = await freePort();
    const { command, args } = servers[mode](port);
    app = run(command, args, {
      cwd: dir,
      env: { PORT: String(port), GRAPHQL_URL: graphqlUrl, VITE_GRAPHQL_URL: graphqlUrl, TOKEN_HANDLER_SECRET: SECRET },
    });
    await app.waitFor(mode === 'development' ? /Local:/ : /listening on/, 30_000);
    url = `http://127.0.0.1:${port}/`;
  }, 60_000);

  afterAll(async () => {
    await app?.kill();
  });

  /** Requests to the token handler's routes, by path, as the page sends them. */
  function authRequests(page: Page): string[] {
    const paths: string[] = [];
    page.on('request', (request: Request) => {
      const { pathname } = new URL(request.url());
      if (pathname.startsWith('/auth/')) paths.push(pathname);
    });
    return paths;
  }

  it('keeps the session across a reload and in a new tab, with a refresh token no script can read, and signs out', async () => {
    const { context, errors } = await chromium.newContext();
    const page = await context.newPage();
    await page.goto(url);
    await signIn(page, 'status');
    await page.getByTestId('clubs').getByText('Your clubs: Downtown Club, Harbor Club').waitFor();

    const [cookie] = (await context.cookies()).filter((each) => each.name === '__Host-token-pair');
    expect(cookie).toMatchObject({ httpOnly: true, secure: true, sameSite: 'Strict', path: '/' });
    expect(await page.evaluate(() => [document.cookie, localStorage.length, sessionStorage.length])).toEqual([
      '',
      0,
      0,
    ]);

    // A reload: one request restores the session, and the screen goes from "Restoring" to the user, never the form.
    const sent = authRequests(page);
    await page.reload();
    await page.getByTestId('status').getByText('Signed in as admin@demo.test').waitFor();
    await page.getByTestId('clubs').getByText('Your clubs: Downtown Club, Harbor Club').waitFor();
    expect(sent).toEqual(['/auth/refresh']);

    // The last tab closed, and the app opened again.
    await page.close();
    const again = await context.newPage();
    await again.goto(url);
    await again.getByTestId('status').getByText('Signed in as admin@demo.test').waitFor();
    await again.getByTestId('me').getByText('me: admin@demo.test (ADMIN)').waitFor();

    const loggedOut = again.waitForResponse((response) => new URL(response.url()).pathname === '/auth/logout');
    await again.getByTestId('sign-out').click();
    expect((await loggedOut).status()).toBe(200);
    await again.getByTestId('status').getByText('Signed out').waitFor();
    expect((await context.cookies()).map((each) => each.name)).not.toContain('__Host-token-pair');
    await again.reload();
    await again.getByTestId('status').getByText('Signed out').waitFor();
    expect(errors).toEqual([]);
  });

  it("shows a wrong password in the API's words, and never sends the handler's secret to the page", async () => {
    const { context, errors } = await chromium.newContext();
    const page = await context.newPage();
    const scripts: Array<Promise<string>> = [];
    page.on('response', (response) => {
      if (/javascript/.test(response.headers()['content-type'] ?? '')) scripts.push(response.text());
    });
    await page.goto(url);
    await page.getByTestId('status').getByText('Signed out').waitFor();
    await page.getByTestId('password').fill('not-the-password');
    await page.getByTestId('sign-in-button').click();
    await page.getByTestId('error').getByText('Invalid email or password').waitFor();
    expect(await page.getByTestId('status').textContent()).toBe('Signed out');

    const bodies = await Promise.all(scripts);
    expect(bodies.length).toBeGreaterThan(0);
    expect(bodies.filter((body) => body.includes(SECRET) || body.includes('TOKEN_HANDLER_SECRET'))).toEqual([]);
    // The API's URL is the one setting the page is meant to have.
    expect(bodies.some((body) => body.includes(graphqlUrl))).toBe(true);
    // The refused sign-in is a 401 of the handler, which Chromium logs; nothing else.
    expect(errors.filter((error) => !/401 \(Unauthorized\)/.test(error))).toEqual([]);
  });
});
