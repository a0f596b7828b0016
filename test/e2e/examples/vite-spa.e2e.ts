import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestAuthServer, type TestAuthServer } from '../../../src/testing';
import { type Child, exampleDir, freePort, requireInstalled, run, signIn as signInAs, useChromium } from './exampleApp';

// examples/vite-spa type-checked and built with its own tsc and vite, served by `vite preview`, calling the
// package's test server directly.
const dir = exampleDir('vite-spa');
const chromium = useChromium();
let api: TestAuthServer;
let preview: Child;
let port: number;

beforeAll(async () => {
  const vite = requireInstalled('vite-spa', 'vite');
  api = createTestAuthServer();
  const graphqlUrl = await api.listen(0, '127.0.0.1');
  const build = run('npm', ['run', '--silent', 'build'], { cwd: dir, env: { VITE_GRAPHQL_URL: graphqlUrl } });
  expect(await build.exited(120_000), build.output()).toBe(0);
  port = await freePort();
  preview = run(vite, ['preview', '--host', '127.0.0.1', '--port', String(port), '--strictPort'], { cwd: dir });
  await preview.waitFor(/Local:/, 30_000);
}, 180_000);

afterAll(async () => {
  await preview?.kill();
  await api?.close();
});

const newContext = () => chromium.newContext();

const signIn = (page: Page) => signInAs(page, 'status');

describe.each(['127.0.0.1', 'localhost'])('examples/vite-spa at http://%s', (host) => {
  const url = (query = '') => `http://${host}:${port}/${query}`;

  it('with the memory store: signs in, is signed out by a reload (the pair lived in the tab), signs out', async () => {
    const { context, errors } = await newContext();
    const page = await context.newPage();
    await page.goto(url());
    await page.getByTestId('store').getByText('Store: memory').waitFor();
    await signIn(page);
    await page.reload();
    await page.getByTestId('status').getByText('Signed out').waitFor();
    await signIn(page);
    api.resetStats();
    await page.getByTestId('sign-out').click();
    await page.getByTestId('status').getByText('Signed out').waitFor();
    await expect.poll(() => api.stats.logoutCalls).toBe(1);
    expect(errors).toEqual([]);
  });

  it('with the broadcast store: a sign-in in one tab shows in the other, and a sign-out in one ends the other', async () => {
    const { context, errors } = await newContext();
    const [first, second] = [await context.newPage(), await context.newPage()];
    await Promise.all([first.goto(url('?store=broadcast')), second.goto(url('?store=broadcast'))]);
    await second.getByTestId('status').getByText('Signed out').waitFor();
    api.resetStats();
    await signIn(first);
    await second.getByTestId('status').getByText('Signed in as admin@demo.test').waitFor();
    await second.getByTestId('me').getByText('me: admin@demo.test (ADMIN)').waitFor();
    // One login for both tabs: the second adopted the pair, it did not sign in again.
    expect(api.stats.loginCalls).toBe(1);
    const logins = api.stats.loginCalls;

    await second.getByTestId('sign-out').click();
    await second.getByTestId('status').getByText('Signed out').waitFor();
    await first.getByTestId('status').getByText('Signed out in another tab').waitFor();
    expect(api.stats.loginCalls).toBe(logins);
    expect(errors).toEqual([]);
  });
});
