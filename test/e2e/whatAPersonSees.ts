import { mkdirSync, readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';

/** Where the e2e screenshots go (git-ignored). */
export const SCREENSHOTS = 'test-output/screenshots';

/**
 * Everything on the current screen of `page` that a person would call broken, as sentences (empty when none):
 * a page wider than the window, a card or one of the `required` test ids outside it (or missing, or hidden),
 * text cut off in a button, heading, label or one of `required`, and buttons too small to tap.
 */
export function layoutProblems(page: Page, required: readonly string[]): Promise<string[]> {
  const width = page.viewportSize()?.width ?? 0;
  return page.evaluate(
    ([required, width]) => {
      const problems: string[] = [];
      // A phone browser lays a page that is too wide out in a wider window and zooms out: that counts too.
      if (window.innerWidth !== width)
        problems.push(`the page is laid out ${window.innerWidth} px wide on a ${width} px screen`);
      const name = (el: Element) =>
        el.getAttribute('data-testid') ?? `${el.tagName.toLowerCase()} "${(el.textContent ?? '').trim().slice(0, 40)}"`;
      const shown = (el: Element) => {
        const rect = el.getBoundingClientRect();
        const style = getComputedStyle(el);
        return (
          rect.width > 0 &&
          rect.height > 0 &&
          style.visibility !== 'hidden' &&
          style.display !== 'none' &&
          Number(style.opacity) > 0
        );
      };
      const inside = (el: Element) => {
        const rect = el.getBoundingClientRect();
        return rect.left >= -0.5 && rect.right <= width + 0.5;
      };
      const { scrollWidth } = document.documentElement;
      if (scrollWidth > width) problems.push(`the page is ${scrollWidth} px wide in a ${width} px window`);
      for (const card of document.querySelectorAll('.card')) {
        if (!inside(card))
          problems.push(
            `card ${name(card)} reaches outside the window (${JSON.stringify(card.getBoundingClientRect())})`,
          );
      }
      for (const id of required) {
        const el = document.querySelector(`[data-testid="${id}"]`);
        if (!el) problems.push(`${id} is missing`);
        else if (!shown(el)) problems.push(`${id} is not visible`);
        else if (!inside(el)) problems.push(`${id} reaches outside the window`);
      }
      const labels = [
        ...document.querySelectorAll('button, h1, h2, h3, h4, label, dt, dd, .badge, [role=alert], [role=status]'),
      ];
      for (const id of required) labels.push(...document.querySelectorAll(`[data-testid="${id}"]`));
      for (const el of labels) {
        if (!shown(el) || getComputedStyle(el).display === 'inline') continue;
        // Text cut off: the content is wider (or taller) than the box that shows it.
        if (el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1) {
          problems.push(
            `the text of ${name(el)} is cut off (${el.scrollWidth}×${el.scrollHeight} in ${el.clientWidth}×${el.clientHeight})`,
          );
        }
      }
      for (const button of document.querySelectorAll('button:not(.link)')) {
        if (!shown(button)) continue;
        const rect = button.getBoundingClientRect();
        if (rect.height < 32 || rect.width < 44)
          problems.push(
            `button ${name(button)} is too small to tap (${Math.round(rect.width)}×${Math.round(rect.height)})`,
          );
        if (!inside(button)) problems.push(`button ${name(button)} reaches outside the window`);
      }
      return problems;
    },
    [required, width] as const,
  );
}

/** The computed colors and weight of the element with test id `id`. */
export function buttonLook(
  page: Page,
  id: string,
): Promise<{ background: string; color: string; fontWeight: string; luminance: number }> {
  return page.getByTestId(id).evaluate((el) => {
    const style = getComputedStyle(el);
    const [r, g, b] = (style.backgroundColor.match(/[\d.]+/g) ?? ['0', '0', '0']).map(Number) as [
      number,
      number,
      number,
    ];
    const alpha = Number(style.backgroundColor.match(/[\d.]+/g)?.[3] ?? 1);
    // A transparent background shows the white card behind it.
    const mix = (channel: number) => (alpha * channel + (1 - alpha) * 255) / 255;
    const luminance = 0.2126 * mix(r) + 0.7152 * mix(g) + 0.0722 * mix(b);
    return { background: style.backgroundColor, color: style.color, fontWeight: style.fontWeight, luminance };
  });
}

/**
 * Saves a full-page screenshot of `page` as `SCREENSHOTS/name.png` and returns the image's size in pixels, read
 * from the PNG header: a page that overflows sideways makes a wider image than the window.
 */
export async function screenshot(
  page: Page,
  name: string,
): Promise<{ path: string; width: number; height: number; bytes: number }> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const path = `${SCREENSHOTS}/${name}.png`;
  await page.screenshot({ path, fullPage: true, animations: 'disabled', caret: 'hide' });
  const png = readFileSync(path);
  return { path, width: png.readUInt32BE(16), height: png.readUInt32BE(20), bytes: png.length };
}
