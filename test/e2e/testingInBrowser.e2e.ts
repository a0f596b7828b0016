import { build } from 'esbuild';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { launchChromium } from './browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

it('the test server runs in Chromium as a Fetch handler (WebCrypto, no Node builtins), a session on it', async () => {
  const bundle = await build({
    entryPoints: [new URL('./fixtures/testingInBrowser.ts', import.meta.url).pathname],
    bundle: true,
    platform: 'browser',
    format: 'iife',
    write: false,
    logLevel: 'silent',
  });
  const page = await browser.newPage();
  // WebCrypto needs a secure context: localhost is one. Playwright answers it; nothing listens there.
  await page.route('http://localhost/', (route) =>
    route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>testing</title>' }),
  );
  await page.goto('http://localhost/');
  await page.addScriptTag({ content: bundle.outputFiles[0]!.text });
  const result = await page.evaluate(() =>
    (globalThis as unknown as { runTestingInBrowser(): Promise<unknown> }).runTestingInBrowser(),
  );
  // Four proactive refreshes in the hour, then the access token was expired on the server: getAccessToken still
  // answers the current one (the client cannot know), which the server refuses with TOKEN_EXPIRED.
  expect(result).toMatchObject({
    role: 'ADMIN',
    status: 'unauthenticated',
    stats: { loginCalls: 1, refreshSuccesses: 4, logoutCalls: 1 },
    me: { errors: [{ extensions: { code: 'TOKEN_EXPIRED' } }] },
  });
  await page.close();
});
