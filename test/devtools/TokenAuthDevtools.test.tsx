// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { StrictMode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AuthRequestError, type Clock } from '../../src';
import { TokenAuthDevtools, type TokenAuthDevtoolsProps } from '../../src/devtools';
import { TokenAuthDevtools as ProductionDevtools } from '../../src/devtools/production';
import { execute } from '../helpers/links';
import { loggedInLinks, setupLinks, tick, TIME, useTestClock, watch } from '../helpers/session';

// The devtools panel as a person meets it: a toggle in a corner, a region with the session now and its timeline,
// on the fake clock with the contract's 15-minute tokens, always inside <StrictMode>.

const { MINUTE } = TIME;

useTestClock();
afterEach(() => cleanup());

const OPEN = { name: 'Open token auth devtools' } as const;
const CLOSE = { name: 'Close token auth devtools' } as const;
const REGION = { name: 'Token auth devtools' } as const;

function show(props: TokenAuthDevtoolsProps, Devtools = TokenAuthDevtools) {
  return render(
    <StrictMode>
      <p>The app</p>
      <Devtools {...props} />
    </StrictMode>,
  );
}

const region = () => screen.getByRole('region', REGION);
const advance = (ms = 0) => act(() => tick(ms));
/** The panel's "Now" facts as the page shows them: each term and its text. */
const facts = () =>
  Object.fromEntries(
    within(region())
      .getAllByRole('term')
      .map((term) => [term.textContent, term.nextElementSibling?.textContent]),
  );
/** `at` as the panel writes a time: the page's local `hh:mm:ss`. */
const localTime = (at: number) =>
  [new Date(at).getHours(), new Date(at).getMinutes(), new Date(at).getSeconds()]
    .map((n) => String(n).padStart(2, '0'))
    .join(':');
const timelineTexts = () =>
  within(screen.getByRole('list', { name: 'Session timeline' }))
    .queryAllByRole('listitem')
    .map((item) => item.textContent);

describe('TokenAuthDevtools: the toggle', () => {
  it('is closed by default: only the toggle, which opens and closes the panel', () => {
    const { auth } = setupLinks();
    show({ auth });
    const toggle = screen.getByRole('button', OPEN);
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByRole('region', REGION)).toBeNull();
    fireEvent.click(toggle);
    expect(screen.queryByRole('region', REGION)).not.toBeNull();
    expect(screen.getByRole('button', CLOSE).getAttribute('aria-expanded')).toBe('true');
    fireEvent.click(screen.getByRole('button', CLOSE));
    expect(screen.queryByRole('region', REGION)).toBeNull();
    expect(screen.getByRole('button', OPEN)).toBe(toggle);
  });

  it('starts open with initialIsOpen; Escape closes it and gives the focus back to the toggle', () => {
    const { auth } = setupLinks();
    show({ auth, initialIsOpen: true, position: 'top-left' });
    const filter = within(region()).getByRole('combobox', { name: 'Filter the timeline' });
    filter.focus();
    fireEvent.keyDown(filter, { key: 'Escape' });
    expect(screen.queryByRole('region', REGION)).toBeNull();
    const toggle = screen.getByRole('button', OPEN);
    expect(document.activeElement).toBe(toggle);
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(screen.getByRole('button', OPEN)).toBe(toggle);
  });

  it('keeps its styles under its own root class, with visible focus outlines', () => {
    const { auth } = setupLinks();
    const { container } = show({ auth, position: 'bottom-left' });
    const css = container.querySelector('style')?.textContent ?? '';
    const selectors = css.match(/[^{}]+(?=\{)/g) ?? [];
    expect(selectors.length).toBeGreaterThan(10);
    for (const selector of selectors.flatMap((each) => each.split(','))) {
      expect(selector.trim()).toMatch(/^\.tap-devtools\b/);
    }
    expect(css).toMatch(/\.tap-devtools \{ all: initial;/);
    expect(css).toMatch(/focus-visible[^}]*outline: 3px solid/);
    expect(screen.getByRole('button', OPEN).closest('.tap-devtools')?.className).toContain('tap-bottom-left');
  });
});

describe('TokenAuthDevtools: the session now', () => {
  it('shows who is signed in and counts the access token and the proactive refresh down, by the fake clock', async () => {
    const { auth } = await loggedInLinks();
    show({ auth, initialIsOpen: true });
    expect(facts()).toEqual({
      Status: 'authenticated',
      User: 'u_1',
      'E-mail': 'a@b.test',
      Role: 'ADMIN',
      'Access token': 'expires in 15:00',
      'Proactive refresh': 'refresh in 12:30',
    });
    await advance(60_000);
    expect(facts()).toMatchObject({ 'Access token': 'expires in 14:00', 'Proactive refresh': 'refresh in 11:30' });
    await advance(1_000);
    expect(facts()['Access token']).toBe('expires in 13:59');
  });

  it('counts down by the session’s own clock, not the page’s', async () => {
    // Two minutes behind the page: the session reads the token's times on this clock, so by it 15 minutes are left.
    const clock: Clock = {
      now: () => Date.now() - 2 * MINUTE,
      setTimeout: (callback, delay) => setTimeout(callback, delay),
      clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
    };
    const { auth } = await loggedInLinks({ clock });
    show({ auth, initialIsOpen: true });
    expect(facts()['Access token']).toBe('expires in 15:00');
    await advance(30_000);
    expect(facts()['Access token']).toBe('expires in 14:30');
  });

  it('says nobody is signed in, shows a retry with its attempt and the failure’s words, and how the session ended', async () => {
    const { auth, stub } = await loggedInLinks();
    show({ auth, initialIsOpen: true });
    const refresh = watch(auth.refresh());
    await advance();
    stub.last('refreshToken').fail();
    await advance();
    expect(AuthRequestError.is(refresh.error) && refresh.error.operation).toBe('refreshToken');
    const failure = 'refreshToken failed on the network: http://auth.test/graphql cannot be reached (fetch failed).';
    expect(facts()['Retry']).toBe(`#1 in 0:05: ${failure}`);
    await advance(2_000);
    expect(facts()['Retry']).toBe(`#1 in 0:03: ${failure}`);
    stub.auto = true;
    await act(() => auth.logout());
    expect(facts()).toEqual({
      Status: 'unauthenticated',
      User: 'nobody',
      'Last session ended': `logout here, at ${localTime(TIME.T0 + 2_000)}`,
    });
    expect(within(region()).queryByText(/^#1 in/)).toBeNull();
  });

  it('shows a refresh that waits for the refresh floor: what asked for it, and when it goes', async () => {
    const { auth, server, link } = setupLinks();
    show({ auth, initialIsOpen: true });
    await act(() => auth.login('a@b.test', 'pw').then(() => {}));
    await act(() => auth.refresh());
    await act(() => auth.refresh());
    server.expired.add((await auth.getAccessToken())!);
    const run = execute(link);
    await advance();
    const now = within(region());
    const floor = now.getByText(/^token-expired refresh waits for the refresh floor, goes in 0:0\d$/);
    const left = Number(/0:0(\d)$/.exec(floor.textContent!)![1]);
    await advance(1_000);
    expect(floor.textContent).toMatch(new RegExp(`goes in 0:0${left - 1}$`));
    await advance(5_000);
    expect(run.completed).toBe(true);
    expect(now.queryByText(/waits for the refresh floor/)).toBeNull();
    expect(timelineTexts().slice(0, 3)).toEqual([
      expect.stringContaining('1 operation replayed: Me'),
      expect.stringContaining('Refresh (token-expired) → rotated (5000 ms)'),
      expect.stringMatching(/Refresh \(token-expired\) waits 5\.0 s for the refresh floor$/),
    ]);
  });
});

describe('TokenAuthDevtools: the timeline', () => {
  async function aSessionsLife() {
    const ctx = setupLinks();
    show({ auth: ctx.auth, initialIsOpen: true });
    await act(() => ctx.auth.login('a@b.test', 'pw').then(() => {}));
    await advance(12.5 * MINUTE);
    const token = (await ctx.auth.getAccessToken())!;
    ctx.server.expired.add(token);
    const runs = Array.from({ length: 5 }, () => execute(ctx.link));
    await advance();
    expect(runs.every((run) => run.completed)).toBe(true);
    return ctx;
  }

  it('shows a session’s life newest first: the burst replayed on one line, the refreshes, the sign-in', async () => {
    await aSessionsLife();
    expect(timelineTexts()).toEqual([
      expect.stringMatching(/^\d\d:\d\d:\d\d5 operations replayed: Me \(×5\)$/),
      expect.stringMatching(/^\d\d:\d\d:\d\dRefresh \(token-expired\) → rotated \(\d+ ms\)$/),
      expect.stringMatching(/^\d\d:\d\d:\d\dRefresh \(proactive\) → rotated \(\d+ ms\)$/),
      expect.stringMatching(/^\d\d:\d\d:\d\dSigned in as a@b\.test \(ADMIN\)$/),
    ]);
    const [, , proactive] = within(screen.getByRole('list', { name: 'Session timeline' })).getAllByRole('listitem');
    expect(proactive!.querySelector('time')?.textContent).toBe(localTime(TIME.T0 + 12.5 * MINUTE));
  });

  it('narrows to one kind with the filter, and empties with "Clear timeline"', async () => {
    await aSessionsLife();
    const filter = within(region()).getByRole('combobox', { name: 'Filter the timeline' });
    const kinds = within(filter)
      .getAllByRole('option')
      .map((option) => option.textContent);
    expect(kinds).toEqual(['All', 'login', 'operations', 'refresh']);
    fireEvent.change(filter, { target: { value: 'refresh' } });
    expect(timelineTexts()).toEqual([
      expect.stringContaining('Refresh (token-expired) → rotated'),
      expect.stringContaining('Refresh (proactive) → rotated'),
    ]);
    fireEvent.change(filter, { target: { value: 'all' } });
    expect(timelineTexts()).toHaveLength(4);
    fireEvent.click(within(region()).getByRole('button', { name: 'Clear timeline' }));
    expect(timelineTexts()).toEqual([]);
    expect(within(region()).queryByText('Nothing yet.')).not.toBeNull();
  });

  it('keeps its entries, and a cleared timeline stays cleared, while the panel is closed', async () => {
    const { auth } = await aSessionsLife();
    fireEvent.click(within(region()).getByRole('button', { name: 'Clear timeline' }));
    fireEvent.click(screen.getByRole('button', CLOSE));
    await act(() => auth.refresh());
    fireEvent.click(screen.getByRole('button', OPEN));
    expect(timelineTexts()).toEqual([expect.stringContaining('Refresh (manual) → rotated')]);
  });
});

describe('TokenAuthDevtools: no token in the page', () => {
  it('holds no access token, no refresh token and no JWT payload after a whole session', async () => {
    const { auth, stub, server, link } = setupLinks();
    show({ auth, initialIsOpen: true });
    const tokens: string[] = [];
    const keep = async () => void tokens.push((await auth.getAccessToken())!);
    await act(() => auth.login('a@b.test', 'pw').then(() => {}));
    await keep();
    await advance(12.5 * MINUTE);
    await keep();
    server.expired.add(tokens.at(-1)!);
    Array.from({ length: 3 }, () => execute(link));
    await advance();
    await keep();
    stub.auto = false;
    const refresh = watch(auth.refresh());
    await advance();
    stub.last('refreshToken').fail(new TypeError(`fetch failed for ${tokens.at(-1)!}`));
    await advance();
    expect(AuthRequestError.is(refresh.error) && refresh.error.operation).toBe('refreshToken');
    expect(facts()['Retry']).toMatch(/^#1 in 0:05: refreshToken failed on the network: .*\(fetch failed for .*\)\.$/);
    const page = document.body.innerHTML;
    stub.auto = true;
    await act(() => auth.logout());
    const pages = [page, document.body.innerHTML];
    const refreshTokens = stub.calls.flatMap((call) => Object.values(call.variables));
    expect(tokens).toHaveLength(3);
    expect(refreshTokens.length).toBeGreaterThan(3);
    for (const html of pages) {
      expect(html).toContain('a@b.test');
      for (const token of tokens) {
        expect(html).not.toContain(token);
        expect(html).not.toContain(token.split('.')[1]);
      }
      for (const secret of refreshTokens.filter((value) => value.startsWith('refresh-'))) {
        expect(html).not.toContain(secret);
      }
    }
  });
});

describe('TokenAuthDevtools: the production switch', () => {
  it('renders nothing when NODE_ENV is production; ./devtools/production renders the panel regardless', async () => {
    const { auth } = setupLinks();
    const was = process.env.NODE_ENV;
    process.env.NODE_ENV = 'production';
    let Production: typeof TokenAuthDevtools;
    try {
      vi.resetModules();
      ({ TokenAuthDevtools: Production } = await import('../../src/devtools/index'));
    } finally {
      process.env.NODE_ENV = was;
    }
    const { container } = show({ auth, initialIsOpen: true }, Production);
    expect(container.textContent).toBe('The app');
    expect(screen.queryByRole('button', OPEN)).toBeNull();
    cleanup();
    process.env.NODE_ENV = 'production';
    try {
      show({ auth, initialIsOpen: true }, ProductionDevtools);
    } finally {
      process.env.NODE_ENV = was;
    }
    expect(screen.queryByRole('region', REGION)).not.toBeNull();
    expect(screen.queryByRole('button', CLOSE)).not.toBeNull();
  });

  it('is the panel outside production', () => {
    const { auth } = setupLinks();
    show({ auth });
    expect(screen.queryByRole('button', OPEN)).not.toBeNull();
  });
});
