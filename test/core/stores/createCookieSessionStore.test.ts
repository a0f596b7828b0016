import { afterEach, describe, expect, it, vi } from 'vitest';
import { COOKIE_STAND_IN, type CookieSessionStoreOptions } from '../../../src';
import type { TokenPair } from '../../../src/core/tokens/TokenPair';
import { openCookieTab } from '../../helpers/cookieTabs';

afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
  vi.unstubAllGlobals();
});

const cleanups: Array<() => unknown> = [];
const tab = (name: string, options?: CookieSessionStoreOptions) => openCookieTab(cleanups, name, options);

/**
 * Web Locks as a browser grants them, one holder at a time; the test grants each waiting request with `grant()`.
 * `asked` holds the names of the requests made.
 */
function stubWebLocks() {
  const waiting: Array<() => void> = [];
  const asked: string[] = [];
  let tail = Promise.resolve();
  vi.stubGlobal('navigator', {
    locks: {
      request<T>(name: string, task: () => Promise<T>): Promise<T> {
        asked.push(name);
        const granted = new Promise<void>((resolve) => waiting.push(resolve));
        const run = tail.then(() => granted).then(task);
        tail = run.then(
          () => {},
          () => {},
        );
        return run;
      },
    },
  });
  return { asked, grant: () => waiting.shift()?.() };
}

const pair = (token: string, receivedAt?: number): TokenPair => ({
  accessToken: token,
  refreshToken: token,
  receivedAt,
});

describe('createCookieSessionStore', () => {
  it('starts every page from the cookie: a pair with no access token and the stand-in refresh token', () => {
    expect(tab(`start-${Math.random()}`).seam.load()).toEqual({ accessToken: '', refreshToken: COOKIE_STAND_IN });
  });

  it('tabs renew one at a time under a Web Lock; a tab that heard of the newer token meanwhile takes it, unsent', async () => {
    const locks = stubWebLocks();
    const name = `locked-${Math.random()}`;
    const [first, second] = [tab(name), tab(name)];
    await first.seam.save(pair('a1'));
    await second.seam.save(pair('a1'));
    const renewFirst = vi.fn(async () => pair('a2', 1000));
    const renewSecond = vi.fn(async () => pair('a3', 2000));
    const rotations = [
      first.seam.rotate(pair('a1'), renewFirst, () => true),
      second.seam.rotate(pair('a1'), renewSecond, () => true),
    ];
    expect(locks.asked).toEqual([`${name} refresh`, `${name} refresh`]);
    expect(renewFirst).not.toHaveBeenCalled();
    locks.grant();
    await expect(rotations[0]).resolves.toEqual({ pair: pair('a2', 1000) });
    // The second tab hears of it before its turn comes.
    await vi.waitFor(() => expect(second.adopted.at(-1)).toEqual(pair('a2', 1000)));
    locks.grant();
    await expect(rotations[1]).resolves.toEqual({ pair: pair('a2', 1000), adopted: true });
    expect(renewSecond).not.toHaveBeenCalled();
  });

  it('a tab that heard of nothing newer renews after the other, with the cookie that renewal left', async () => {
    const locks = stubWebLocks();
    const name = `serial-${Math.random()}`;
    // A page still loading: it follows no rotation, and renews from the cookie in its turn.
    const [first, loading] = [tab(name), tab(name)];
    await first.seam.save(pair('a1'));
    const order: string[] = [];
    const renew = (token: string) => async () => (order.push(token), pair(token));
    const rotations = [
      first.seam.rotate(pair('a1'), renew('a2'), () => true),
      loading.seam.rotate(pair('', undefined), renew('a3'), () => true),
    ];
    locks.grant();
    await rotations[0];
    expect(order).toEqual(['a2']);
    locks.grant();
    await expect(rotations[1]).resolves.toEqual({ pair: pair('a3') });
    expect(order).toEqual(['a2', 'a3']);
  });

  it('with lock: false (a token handler, which answers concurrent refreshes alike) asks for no lock', async () => {
    const locks = stubWebLocks();
    const { seam } = tab(`unlocked-${Math.random()}`, { lock: false });
    await expect(
      seam.rotate(
        pair('a1'),
        async () => pair('a2'),
        () => true,
      ),
    ).resolves.toEqual({ pair: pair('a2') });
    expect(locks.asked).toEqual([]);
  });
});
