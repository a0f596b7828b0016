import { describe, expect, it } from 'vitest';
import { useDemoInChromium } from './browser';
import { signIn } from './demoPage';

const session = useDemoInChromium();

describe('the demo after the computer slept', () => {
  it('logs the refresh that runs when the page comes back as a refresh on waking up, not a proactive one', async () => {
    const page = await session.context.newPage();
    // The page's clock is Playwright's: it can jump ahead as a sleeping laptop's does, with no timer firing.
    await page.clock.install();
    await signIn(page, session.demo.url);
    const log = page.getByTestId('event-log');
    expect(await page.getByTestId('refresh-in').innerText()).toMatch(/^4[78] s$/);

    session.demo.server.resetStats();
    await page.clock.setSystemTime(Date.now() + 55_000);
    expect(await log.innerText()).not.toMatch(/waking up|Proactive/);
    await page.evaluate(() => window.dispatchEvent(new Event('focus')));
    await log.getByText('Refreshed on waking up').waitFor();
    expect(await log.innerText()).not.toMatch(/Proactive/);
    // One refresh, with a new schedule: the page does not keep refreshing.
    await expect.poll(() => page.getByTestId('refresh-in').innerText()).toMatch(/^4\d s$/);
    expect(session.demo.server.stats).toMatchObject({ refreshCalls: 1, refreshSuccesses: 1, reuseDetections: 0 });
    expect((await log.innerText()).match(/waking up/g)).toHaveLength(1);
    await page.close();
  });
});
