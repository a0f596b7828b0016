// Renders a soak's report in Chromium and saves its timelines and invariants as a PNG (docs/soak-timeline.png
// unless told): `npx tsx scripts/soak/screenshotReport.ts [soak-report] [out.png]`.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { launchChromium } from '../../test/e2e/browser.ts';

const report = resolve(process.argv[2] ?? 'soak-report', 'index.html');
const out = resolve(process.argv[3] ?? 'docs/soak-timeline.png');
const browser = await launchChromium();
try {
  const page = await browser.newPage({ viewport: { width: 1240, height: 900 }, deviceScaleFactor: 1.5 });
  await page.goto(pathToFileURL(report).href);
  // From the title down to the end of the invariants' table.
  const bottom = await page.evaluate(() => {
    const table = document.querySelectorAll('table')[0]!;
    return table.getBoundingClientRect().bottom + window.scrollY + 12;
  });
  await page.screenshot({ path: out, clip: { x: 0, y: 0, width: 1240, height: bottom } });
  console.log(out);
} finally {
  await browser.close();
}
