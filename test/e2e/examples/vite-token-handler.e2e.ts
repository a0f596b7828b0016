import type { Page, Request, Response } from 'playwright-core';
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

  /** The body of every answer of the token handler's routes that reaches the page, read as it arrives. */
  function authAnswers(page: Page): Array<Promise<string>> {
    const bodies: Array<Promise<string>> = [];
    page.on('response', (response: Response) => {
      if (new URL(response.url()).pathname.startsWith('/auth/')) bodies.push(response.text());
    });
    return bodies;
  }

  /** Fails unless the page's answers were read, and none of them holds a refresh token the API issued. */
  async function expectNoRefreshTokenIn(bodies: Array<Promise<string>>) {
    const issued = api.stats.refreshTokensIssued;
    expect(issued.length).toBeGreaterThan(0);
    const answers = await Promise.all(bodies);
    // The sign-in's answer is among them: it carries the access token.
    expect(answers.filter((answer) => answer.includes('"accessToken":"')).length).toBeGreaterThan(0);
    expect(answers.filter((answer) => issued.some((token) => answer.includes(token)))).toEqual([]);
  }

  /** Fails if a script of the signed-in page can read its session: nothing stored, the cookie HttpOnly. */
  async function expectSessionOutOfScriptsReach(page: Page) {
    const [cookie] = (await page.context().cookies()).filter((each) => each.name === '__Host-token-pair');
    expect(cookie?.httpOnly).toBe(true);
    expect(await page.evaluate(() => [document.cookie, localStorage.length, sessionStorage.length])).toEqual([
      '',
      0,
      0,
    ]);
  }

  /** Opens one of the sign-in screen's ways in: `Password`, `Sign up` or `Code by e-mail`. */
  const choose = (page: Page, tab: string) => page.getByRole('button', { name: tab, exact: true }).click();

  /** Waits until the page shows `email` signed in, with its `me`. */
  async function signedIn(page: Page, email: string, role: string) {
    await page.getByTestId('status').getByText(`Signed in as ${email}`).waitFor();
    await page.getByTestId('me').getByText(`me: ${email} (${role})`).waitFor();
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

  it("shows a wrong password in the API's words, and never sends the handler's secret or its sign-in documents to the page", async () => {
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
    // Nor the sign-in doors' documents (signIns.ts): the page names a door, the handler holds its mutation.
    expect(bodies.filter((body) => /requestSignInCode|signInWithCode/.test(body))).toEqual([]);
    // The API's URL is the one setting the page is meant to have.
    expect(bodies.some((body) => body.includes(graphqlUrl))).toBe(true);
    // The refused sign-in is a 401 of the handler, which Chromium logs; nothing else.
    expect(errors.filter((error) => !/401 \(Unauthorized\)/.test(error))).toEqual([]);
  });

  it("signs a new account up through the handler's register door, keeps it across a reload with one refresh, and shows an e-mail taken in the API's words", async () => {
    const { context, errors } = await chromium.newContext();
    const page = await context.newPage();
    const answers = authAnswers(page);
    const email = `new-${mode}@demo.test`;
    await page.goto(url);
    await page.getByTestId('status').getByText('Signed out').waitFor();
    await choose(page, 'Sign up');
    await page.getByTestId('email').fill(email);
    await page.getByTestId('password').fill('correct horse');
    await page.getByRole('button', { name: 'Create account' }).click();
    await signedIn(page, email, 'MEMBER');

    const sent = authRequests(page);
    await page.reload();
    await signedIn(page, email, 'MEMBER');
    expect(sent).toEqual(['/auth/refresh']);
    await expectSessionOutOfScriptsReach(page);

    await page.getByTestId('sign-out').click();
    await page.getByTestId('status').getByText('Signed out').waitFor();
    await choose(page, 'Sign up');
    await page.getByTestId('email').fill(email);
    await page.getByTestId('password').fill('correct horse');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByTestId('error').getByText(`An account with ${email} exists already`).waitFor();
    expect(await page.getByTestId('status').textContent()).toBe('Signed out');
    await expectNoRefreshTokenIn(answers);
    expect(errors.filter((error) => !/401 \(Unauthorized\)/.test(error))).toEqual([]);
  });

  it("signs in with a code sent by e-mail after a wrong one shown in the API's words, and signs out; no refresh token in any answer the page gets", async () => {
    const { context, errors } = await chromium.newContext();
    const page = await context.newPage();
    const answers = authAnswers(page);
    await page.goto(url);
    await page.getByTestId('status').getByText('Signed out').waitFor();
    await choose(page, 'Code by e-mail');
    await page.getByTestId('email').fill('admin@demo.test');
    await page.getByRole('button', { name: 'Send me a code' }).click();
    await page.getByText('We sent a code to admin@demo.test.').waitFor();
    const { code } = api.codes('admin@demo.test').at(-1)!;
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');

    await page.getByLabel('Code').fill(wrong);
    await page.getByRole('button', { name: 'Sign in with the code' }).click();
    await page.getByTestId('error').getByText('Wrong sign-in code').waitFor();
    expect(await page.getByTestId('status').textContent()).toBe('Signed out');
    await page.getByLabel('Code').fill(code);
    await page.getByRole('button', { name: 'Sign in with the code' }).click();
    await signedIn(page, 'admin@demo.test', 'ADMIN');
    await expectSessionOutOfScriptsReach(page);

    const loggedOut = page.waitForResponse((response) => new URL(response.url()).pathname === '/auth/logout');
    await page.getByTestId('sign-out').click();
    expect((await loggedOut).status()).toBe(200);
    await page.getByTestId('status').getByText('Signed out').waitFor();
    expect((await context.cookies()).map((each) => each.name)).not.toContain('__Host-token-pair');
    await expectNoRefreshTokenIn(answers);
    expect(errors.filter((error) => !/401 \(Unauthorized\)/.test(error))).toEqual([]);
  });
});
