import { mkdirSync, statSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { useDemoInChromium } from './browser';

const session = useDemoInChromium();
let page: Page;

beforeAll(async () => {
  page = await session.context.newPage();
});

describe('the demo app in Chromium', () => {
  it('log in → me → forced expiry → 20 concurrent queries with one refresh → log out', async () => {
    await page.goto(session.demo.url);
    await page.getByTestId('login-form').waitFor();
    await page.getByTestId('account-ADMIN').click();
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByTestId('me-id').waitFor();
    expect(await page.getByTestId('me-id').textContent()).toBe('u_admin');
    expect(await page.getByTestId('role').textContent()).toBe('ADMIN');

    mkdirSync('test-output', { recursive: true });
    const shot = 'test-output/demo-after-login.png';
    await page.screenshot({ path: shot });
    expect(statSync(shot).size).toBeGreaterThan(10_000);
    // What a person sees in that screenshot: who is signed in, the role, and both countdowns ticking.
    const visible = await page.locator('main').innerText();
    expect(visible).toContain('admin@demo.test');
    expect(visible).toMatch(/Access token expires in\s+(59|60) s/);
    expect(visible).toMatch(/Next proactive refresh in\s+5[01] s/);
    expect(visible).toContain('Logged in as admin@demo.test (ADMIN)');

    session.demo.server.resetStats();
    await page.getByTestId('expire').click();
    await page.getByTestId('event-log').getByText('every access token expired').waitFor();
    await page.getByTestId('fire').click();
    await page.getByTestId('burst-result').getByText('20 of 20 queries succeeded').waitFor();
    expect(session.demo.server.stats).toMatchObject({
      refreshCalls: 1,
      refreshSuccesses: 1,
      reuseDetections: 0,
      tokenExpired: 20,
    });
    await page.getByTestId('event-log').getByText('TOKEN_EXPIRED: pair refreshed once').waitFor();

    await page.getByTestId('logout').click();
    await page.getByTestId('login-form').waitFor();
    await vi.waitFor(() => expect(session.demo.server.stats.logoutCalls).toBe(1));
  });

  it('shows a failed login and the session ending when the server revokes it', async () => {
    await page.goto(session.demo.url);
    await page.locator('input[name=email]').fill('cashier@demo.test');
    await page.locator('input[name=password]').fill('wrong');
    await page.getByRole('button', { name: 'Sign in' }).click();
    // In plain words, not the library's ("login was rejected: Invalid email or password").
    await page.getByRole('alert').getByText('Wrong e-mail or password.').waitFor();

    await page.getByTestId('account-Cashier').click();
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByTestId('me-id').waitFor();
    expect(await page.getByTestId('role').textContent()).toBe('Cashier');

    await page.getByTestId('revoke').click();
    await page.getByTestId('expire').click();
    await page.getByTestId('fire').click();
    await page.getByTestId('login-form').waitFor();
    await page.getByRole('alert').getByText('session ended').waitFor();
  });
});
