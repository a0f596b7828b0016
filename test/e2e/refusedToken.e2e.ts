import type { BrowserContext, Page } from 'playwright-core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useDemoInChromium } from './browser';

// Found reviewing the token handler against an API that stops accepting every access token before its `exp` (the
// demo's "Expire access tokens now"; a signing-key rotation, a clock ahead). Two tabs of one browser behind the token
// handler: each burst succeeds whole, and each kill costs at most one upstream rotation.

const session = useDemoInChromium();
const contexts: BrowserContext[] = [];

afterEach(async () => {
  await Promise.all(contexts.splice(0).map((context) => context.close()));
});

/**
 * Two tabs of one browser context (one cookie jar), signed in as the admin. `deaf`: the second tab has no
 * `BroadcastChannel` (a browser without one), so it hears of no other tab's rotation.
 */
async function twoTabs({ deaf = false } = {}): Promise<[Page, Page]> {
  const context = await session.browser.newContext({ viewport: { width: 1100, height: 760 } });
  contexts.push(context);
  const first = await context.newPage();
  await first.goto(session.demo.url);
  await first.getByTestId('account-ADMIN').click();
  await first.getByRole('button', { name: 'Sign in' }).click();
  await first.getByTestId('me-id').waitFor();
  const second = await context.newPage();
  if (deaf) await second.addInitScript(() => delete (window as { BroadcastChannel?: unknown }).BroadcastChannel);
  await second.goto(session.demo.url);
  await second.getByTestId('me-id').waitFor();
  return [first, second];
}

/** Fires `count` queries with the demo's burst button: how many succeeded, as the page then shows it. */
async function fire(page: Page, count = 20): Promise<number> {
  await page.getByTestId('burst-size').fill(String(count));
  // The result of this burst, not the one an earlier burst left on the screen.
  await page.evaluate(() => {
    const result = document.querySelector('[data-testid="burst-result"]')!;
    (window as unknown as { __burst: Promise<string> }).__burst = new Promise((resolve) => {
      const observer = new MutationObserver(() => {
        if (!/succeeded/.test(result.textContent ?? '')) return;
        observer.disconnect();
        resolve(result.textContent!);
      });
      observer.observe(result, { childList: true, characterData: true, subtree: true });
    });
  });
  await page.getByTestId('fire').click();
  const text = await page.evaluate(() => (window as unknown as { __burst: Promise<string> }).__burst);
  const [, succeeded, of] = /^(\d+) of (\d+) queries succeeded/.exec(text) ?? [];
  expect(Number(of)).toBe(count);
  return Number(succeeded);
}

/** Kills every access token on the API, then runs `bursts`: what each succeeded, and the upstream rotations it cost. */
async function afterKill<T>(bursts: () => Promise<T>): Promise<{ succeeded: T; rotations: number }> {
  const before = session.demo.server.stats.refreshCalls;
  session.demo.server.expireAllAccessTokens();
  const succeeded = await bursts();
  return { succeeded, rotations: session.demo.server.stats.refreshCalls - before };
}

describe('two tabs behind the token handler, the API killing every access token early, in Chromium', () => {
  it('a kill, 20 operations in one tab; a kill, 20 in the other; three times → 20 of 20 each, one rotation per kill', async () => {
    const [first, second] = await twoTabs();
    session.demo.server.resetStats();

    const kills = [];
    for (let round = 0; round < 3; round++) {
      // The tab that fires after the second kill did not take part in the rotation of the first: before the fix,
      // the handler answered it with that rotation's pair, which the API refused already (0 of 20).
      kills.push(await afterKill(() => fire(first)));
      kills.push(await afterKill(() => fire(second)));
    }

    console.info('kill → burst in one tab:', JSON.stringify(kills));
    expect(kills).toEqual(Array(6).fill({ succeeded: 20, rotations: 1 }));
    expect(session.demo.server.stats).toMatchObject({ loginCalls: 0, refreshCalls: 6, reuseDetections: 0 });
  }, 120_000);

  it('a kill, 20 operations in each tab at once; three times → 20 of 20 in both, at most one rotation per kill', async () => {
    const [first, second] = await twoTabs();
    session.demo.server.resetStats();

    const kills = [];
    for (let round = 0; round < 3; round++) kills.push(await afterKill(() => Promise.all([fire(first), fire(second)])));

    console.info('kill → bursts in both tabs:', JSON.stringify(kills));
    for (const kill of kills) {
      expect(kill.succeeded).toEqual([20, 20]);
      expect(kill.rotations).toBeLessThanOrEqual(1);
    }
    expect(session.demo.server.stats.reuseDetections).toBe(0);
  }, 120_000);

  it('a tab that hears no other reports an older token while the newest one’s rotation runs → it waits for that rotation, 20 of 20', async () => {
    const [first, second] = await twoTabs({ deaf: true });
    expect(await second.evaluate(() => typeof BroadcastChannel)).toBe('undefined');
    session.demo.server.resetStats();

    const kills = [];
    try {
      for (let round = 0; round < 3; round++) {
        // The first tab rotates; the second, deaf to it, keeps the older token.
        kills.push(await afterKill(async () => [await fire(first)]));
        // Then the API refuses the first tab's token too. Its refresh rotates upstream, slowly; meanwhile the
        // second tab's operations fail with the older token, and its refresh names that one. Before the fix the
        // handler answered it with the first tab's token, which the API had just refused: 0 of 20.
        session.demo.server.faults.delayMs['refreshToken'] = 1500;
        kills.push(
          await afterKill(async () => {
            const before = session.demo.server.stats.refreshCalls;
            const firing = fire(first);
            await vi.waitFor(() => expect(session.demo.server.stats.refreshCalls).toBeGreaterThan(before), {
              timeout: 10_000,
              interval: 10,
            });
            return Promise.all([firing, fire(second)]);
          }),
        );
        delete session.demo.server.faults.delayMs['refreshToken'];
      }
    } finally {
      delete session.demo.server.faults.delayMs['refreshToken'];
    }

    console.info('a deaf tab, a rotation in flight:', JSON.stringify(kills));
    expect(kills).toEqual(Array.from({ length: 6 }, (_, i) => ({ succeeded: i % 2 ? [20, 20] : [20], rotations: 1 })));
    expect(session.demo.server.stats.reuseDetections).toBe(0);
  }, 120_000);
});
