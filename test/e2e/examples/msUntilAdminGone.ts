import type { BrowserContext, Page } from 'playwright-core';

// How soon examples/vite-spa takes the signed-in admin's data off the page after a sign-out.

/** The admin's data as the page shows it: its email, its clubs. */
export const ADMIN_TEXT = /admin@demo\.test|Downtown Club|Harbor Club/;

/**
 * Measured in the page: ms from a sign-out (`button`: the Sign out button; `console`: `auth.logout()` on
 * `window`, outside React; `elsewhere`: none here, another tab signs out) until the page's text holds nothing of
 * the admin's, checked at every change of the page (a tab in the background gets no animation frames and slow
 * timers, but its mutations are observed at once); fails after 10 s.
 */
export function msUntilAdminGone(page: Page, how: 'button' | 'console' | 'elsewhere'): Promise<number> {
  return page.evaluate(
    ([how, pattern]) =>
      new Promise<number>((resolve, reject) => {
        const adminText = new RegExp(pattern);
        const start = performance.now();
        const check = () => {
          if (adminText.test(document.body.innerText)) return;
          observer.disconnect();
          clearTimeout(timer);
          resolve(performance.now() - start);
        };
        const observer = new MutationObserver(check);
        observer.observe(document.body, { subtree: true, childList: true, characterData: true });
        const timer = setTimeout(() => {
          observer.disconnect();
          reject(new Error(`Still on the page after 10 s: ${document.body.innerText}`));
        }, 10_000);
        if (how === 'button') document.querySelector<HTMLButtonElement>('[data-testid="sign-out"]')!.click();
        if (how === 'console') void (window as unknown as { auth: { logout(): Promise<void> } }).auth.logout();
        check();
      }),
    [how, ADMIN_TEXT.source] as const,
  );
}

/**
 * Holds the answer to every `logout` mutation the pages of `context` send until the returned function is called: a
 * page that takes the user's data off the screen while its logout is held does not wait for the network, however
 * slow the machine is.
 */
export async function holdLogouts(context: BrowserContext): Promise<() => Promise<void>> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await context.route('**/graphql', async (route) => {
    if (!/\blogout\s*\(/.test(route.request().postData() ?? '')) return route.fallback();
    await released;
    await route.fallback();
  });
  return async () => {
    release();
    await context.unrouteAll({ behavior: 'wait' });
  };
}
