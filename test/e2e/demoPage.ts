import type { Page } from 'playwright-core';

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
