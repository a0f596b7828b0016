import type { Browser, BrowserContext, Page } from 'playwright-core';

/** The two sizes a person looks at the demo with. */
export const VIEWPORTS = [
  { name: 'desktop', width: 1280, height: 800, isMobile: false },
  { name: 'phone', width: 390, height: 844, isMobile: true },
] as const;

/** A browser context of one of {@link VIEWPORTS}, a phone's with touch. */
export function viewportContext(browser: Browser, viewport: (typeof VIEWPORTS)[number]): Promise<BrowserContext> {
  return browser.newContext({
    viewport: { width: viewport.width, height: viewport.height },
    isMobile: viewport.isMobile,
    hasTouch: viewport.isMobile,
  });
}

/** Opens the demo at `url` and signs in with a seeded account, picked as a person would. */
export async function signIn(page: Page, url: string, account: 'OWNER' | 'ADMIN' | 'Cashier' = 'ADMIN'): Promise<void> {
  await page.goto(url);
  await page.getByTestId(`account-${account}`).click();
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByTestId('me-id').waitFor();
}

/** Fires `count` concurrent queries from the dashboard and waits for the line that counts the successes. */
export async function fire(page: Page, count: number): Promise<string> {
  await page.getByTestId('burst-size').fill(String(count));
  await page.getByTestId('fire').click();
  const result = page.getByTestId('burst-result').getByText(/of \d+ queries succeeded/);
  await result.waitFor();
  return result.innerText();
}
