// Takes docs/demo.png, the README's picture: the demo after a forced expiry and 20 concurrent queries (`npm run screenshot`).
import { fileURLToPath } from 'node:url';
import { startDemo } from '../demo/startDemo.ts';
import { launchChromium } from '../test/e2e/browser.ts';
import { fire, signIn } from '../test/e2e/demoPage.ts';

const demo = await startDemo({ port: 0 });
const browser = await launchChromium();
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await signIn(page, demo.url);
  await page.getByTestId('reset-counters').click();
  await page.getByTestId('expire').click();
  console.log(await fire(page, 20));
  await page.getByTestId('counter-refreshes').getByText('1 (1 succeeded)').waitFor();
  await page.screenshot({ path: fileURLToPath(new URL('../docs/demo.png', import.meta.url)), fullPage: true });
} finally {
  await browser.close();
  await demo.close();
}
