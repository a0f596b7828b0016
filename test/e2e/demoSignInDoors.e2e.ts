import type { BrowserContext, Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { useDemoInChromium } from './browser';
import { VIEWPORTS, viewportContext } from './demoPage';
import { layoutProblems } from './whatAPersonSees';

const session = useDemoInChromium();
const contexts: BrowserContext[] = [];
/** The body of every answer of the token handler (`/auth/…`) a page of this file received, with its path. */
const answers: Promise<{ path: string; body: string }>[] = [];

afterEach(async () => {
  // The bodies are read before their browser closes.
  await Promise.all(answers);
  await Promise.all(contexts.splice(0).map((context) => context.close()));
});

/** A signed-out page of a browser of its own (its own cookie jar) whose handler answers are kept. */
async function signedOutPage(viewport: (typeof VIEWPORTS)[number] = VIEWPORTS[0]): Promise<Page> {
  const context = await viewportContext(session.browser, viewport);
  contexts.push(context);
  context.on('response', (response) => {
    const { pathname } = new URL(response.url());
    if (pathname.startsWith('/auth/')) answers.push(response.text().then((body) => ({ path: pathname, body })));
  });
  const page = await context.newPage();
  await page.goto(session.demo.url);
  await page.getByTestId('login-form').waitFor();
  return page;
}

/** The lines of the event log as a person reads them, newest first. */
const logLines = (page: Page) => page.getByTestId('event-log').locator('li').allInnerTexts();

/** The code the demo's mail box shows, once it shows one. */
async function codeInMailBox(page: Page): Promise<string> {
  const box = page.getByTestId('mail-box');
  await box.getByTestId('mail-box-code').waitFor();
  expect(await box.locator('h4').innerText()).toContain("(the demo's mail box)");
  return box.getByTestId('mail-box-code').innerText();
}

/** A code of six digits that is not `code`. */
const wrong = (code: string) => `${code.slice(0, 5)}${(Number(code[5]) + 1) % 10}`;

describe('the demo signs people in through the token handler’s sign-in doors, in Chromium', () => {
  it('a sign-up is signed in at once, the log names the door, and a reload keeps the session', async () => {
    const page = await signedOutPage();
    await page.getByTestId('tab-sign-up').click();
    expect(await page.getByTestId('hint-sign-up').innerText()).toContain('signed in at once');
    await page.getByTestId('sign-up-email').fill('ada@demo.test');
    await page.getByTestId('sign-up-password').fill('ada-lovelace');
    await page.getByTestId('sign-up').click();

    await page.getByTestId('me-id').waitFor();
    expect(await page.getByTestId('user-email').innerText()).toBe('ada@demo.test');
    expect(await page.getByTestId('role').innerText()).toBe('MEMBER');
    expect((await logLines(page))[0]).toMatch(
      /Signed up and logged in as ada@demo\.test \(MEMBER\)\s+signIn\('register'\)/,
    );

    await page.reload();
    await page.getByTestId('me-id').waitFor();
    expect(await page.getByTestId('user-email').innerText()).toBe('ada@demo.test');
    expect(await page.getByTestId('login-form').count()).toBe(0);
  });

  it('a sign-up the server refuses shows its words: an e-mail that has an account, a password too short', async () => {
    const page = await signedOutPage();
    await page.getByTestId('tab-sign-up').click();
    await page.getByTestId('sign-up-email').fill('admin@demo.test');
    await page.getByTestId('sign-up-password').fill('long-enough');
    await page.getByTestId('sign-up').click();
    const error = page.getByTestId('sign-up-error');
    await error.getByText('An account with admin@demo.test exists already.').waitFor();

    await page.getByTestId('sign-up-email').fill('grace@demo.test');
    await page.getByTestId('sign-up-password').fill('short');
    await page.getByTestId('sign-up').click();
    await error.getByText('Password must be at least 8 characters.').waitFor();
    expect(await page.getByTestId('login-form').isVisible()).toBe(true);
    expect((await logLines(page))[0]).toMatch(
      /Sign-up failed: Password must be at least 8 characters\.\s+signIn\('register'\)/,
    );
  });

  it('a code by e-mail: the mail box shows it, a wrong code is refused in the server’s words, the right one signs in', async () => {
    const page = await signedOutPage();
    await page.getByTestId('tab-code').click();
    await page.getByTestId('code-email').fill('cashier@demo.test');
    await page.getByTestId('request-code').click();
    const sent = page.getByTestId('code-sent');
    await sent.waitFor();
    expect(await sent.innerText()).toBe('We sent a code to cashier@demo.test. It works for 10 minutes.');
    const code = await codeInMailBox(page);
    expect(code).toBe(session.demo.server.codes('cashier@demo.test').at(-1)?.code);
    expect((await logLines(page))[0]).toMatch(/A sign-in code was sent by e-mail.*\s+signIn\('requestCode'\)/);
    expect(
      await layoutProblems(page, ['tab-password', 'tab-code', 'tab-sign-up', 'code-input', 'submit-code', 'mail-box']),
    ).toEqual([]);

    await page.getByTestId('code-input').fill(wrong(code));
    await page.getByTestId('submit-code').click();
    await page.getByTestId('code-error').getByText('Wrong sign-in code.').waitFor();
    expect((await logLines(page))[0]).toMatch(/Sign-in failed: Wrong sign-in code\.\s+signIn\('withCode'\)/);

    // As a person would: the code read off the mail box, typed into the field.
    await page.getByTestId('code-input').fill(code);
    await page.getByTestId('submit-code').click();
    await page.getByTestId('me-id').waitFor();
    expect(await page.getByTestId('user-email').innerText()).toBe('cashier@demo.test');
    expect((await logLines(page))[0]).toMatch(
      /Logged in as cashier@demo\.test \(Cashier\) with a code by e-mail\s+signIn\('withCode'\)/,
    );
  });

  it('the account with a second factor: login() refuses it, the signIn door asks for the code, the code signs in (phone)', async () => {
    const page = await signedOutPage(VIEWPORTS[1]);
    const calls = { ...session.demo.server.stats };
    await page.getByTestId('account-second-factor').click();
    await page.getByRole('button', { name: 'Sign in' }).click();
    const asked = page.getByTestId('second-factor-asked');
    await asked.waitFor();
    expect(await asked.innerText()).toBe('twofactor@demo.test has a second factor: we sent a code to that address.');
    const code = await codeInMailBox(page);
    expect(
      await layoutProblems(page, ['second-factor-code', 'verify-second-factor', 'mail-box', 'start-over']),
    ).toEqual([]);
    expect(await page.getByTestId('login-error').count()).toBe(0);

    await page.getByTestId('second-factor-code').fill(code);
    await page.getByTestId('verify-second-factor').click();
    await page.getByTestId('me-id').waitFor();
    expect(await page.getByTestId('me-id').innerText()).toBe('u_twofactor');
    expect(session.demo.server.stats).toMatchObject({
      loginCalls: calls.loginCalls + 1,
      signInCalls: calls.signInCalls + 1,
      verifySecondFactorCalls: calls.verifySecondFactorCalls + 1,
    });
    const [signedIn, challenged, refused] = await logLines(page);
    expect(signedIn).toMatch(
      /Logged in as twofactor@demo\.test \(ADMIN\) after the second factor\s+signIn\('verify'\)/,
    );
    expect(challenged).toMatch(/the server asks for a second factor.*\s+signIn\('signIn'\)/);
    expect(refused).toMatch(/Login refused: this account has a second factor.*\s+login\(\)/);
  });

  it('no answer of the token handler to these pages carried a refresh token the server issued', async () => {
    const bodies = await Promise.all(answers);
    const issued = session.demo.server.stats.refreshTokensIssued;
    // The answers that began sessions are among them: a refresh token would have been there.
    const began = bodies.filter(({ path, body }) => path === '/auth/sign-in' && body.includes('"accessToken"'));
    expect(began.length).toBeGreaterThan(0);
    expect(issued.length).toBeGreaterThan(0);
    for (const { path, body } of bodies) for (const token of issued) expect(body, path).not.toContain(token);
  });
});
