import { describe, expect, it, vi } from 'vitest';
import { createTestAuthServer } from '../../src/testing';
import type { TestUser } from '../../src/testing/users';
import { useCleanups } from '../helpers/overHttp';
import { COOKIE, parseSetCookie, startTokenHandler } from '../helpers/tokenHandler';
import { fatUser } from '../helpers/fatUser';

const cleanups = useCleanups();

async function rigWith(users: TestUser[], onError = vi.fn()) {
  const upstream = createTestAuthServer({
    users: [{ email: 'admin@demo.test', password: 'admin-pass', role: 'ADMIN' }, ...users],
  });
  await upstream.listen(0, '127.0.0.1');
  cleanups.push(() => upstream.close());
  return { rig: await startTokenHandler(cleanups, { upstream, handler: { onError } }), upstream, onError };
}

describe('a pair too large for one cookie', () => {
  it('is kept in chunks of at most 4,096 bytes that reassemble: a 4 kB access token survives a reload and a rotation', async () => {
    const { rig, upstream } = await rigWith([fatUser('fat@demo.test', 4000)]);
    const login = await rig.post('login', { email: 'fat@demo.test', password: 'fat-pass' });
    expect(login.status).toBe(200);
    expect(login.body.accessToken.length).toBeGreaterThan(3900);
    expect(login.body.accessToken.length).toBeLessThan(4500);
    const cookies = login.setCookie.map(parseSetCookie);
    expect(cookies.map(({ name }) => name)).toEqual([`${COOKIE}.0`, `${COOKIE}.1`]);
    for (const { name, value } of cookies) expect(name.length + 1 + value.length).toBeLessThanOrEqual(4096);

    // A reload: the page asks for the token it does not hold; the chunks come back and open.
    const reload = await rig.post('refresh', {});
    expect(reload.status).toBe(200);
    expect(reload.body.accessToken).toBe(login.body.accessToken);
    // The page asks for a new one: the pair is rotated and stored in chunks again.
    const rotated = await rig.post('refresh', { accessToken: login.body.accessToken });
    expect(rotated.status).toBe(200);
    expect(rotated.body.accessToken).not.toBe(login.body.accessToken);
    expect(upstream.stats.refreshSuccesses).toBe(1);
    expect((await rig.post('refresh', {})).body.accessToken).toBe(rotated.body.accessToken);
  });

  it('goes back to one cookie when the pair shrinks, clearing the chunks', async () => {
    const { rig } = await rigWith([fatUser('fat@demo.test', 4000)]);
    await rig.post('login', { email: 'fat@demo.test', password: 'fat-pass' });
    const slim = await rig.post('login', { email: 'admin@demo.test', password: 'admin-pass' });
    const set = slim.setCookie.map(parseSetCookie);
    expect(set.find(({ name }) => name === COOKIE)?.value).not.toBe('');
    expect(
      set
        .filter(({ name }) => name.startsWith(`${COOKIE}.`))
        .map(({ name, attributes }) => [name, attributes['max-age']]),
    ).toEqual([
      [`${COOKIE}.0`, '0'],
      [`${COOKIE}.1`, '0'],
    ]);
    expect(rig.jar.header()).toBe(`${COOKIE}=${rig.jar.get(COOKIE)}`);
  });

  it('refuses chunks sent twice, or a chunk missing, with a clean 401 that clears them, and spends nothing', async () => {
    const { rig, upstream } = await rigWith([fatUser('fat@demo.test', 4000)]);
    await rig.post('login', { email: 'fat@demo.test', password: 'fat-pass' });
    const [first, second] = [rig.jar.get(`${COOKIE}.0`)!, rig.jar.get(`${COOKIE}.1`)!];
    upstream.resetStats();
    for (const cookie of [
      `${COOKIE}.0=${first}; ${COOKIE}.0=${first}; ${COOKIE}.1=${second}`,
      `${COOKIE}.1=${second}`,
      `${COOKIE}.0=${first}`,
      `${COOKIE}=${first}; ${COOKIE}.0=${first}; ${COOKIE}.1=${second}`,
    ]) {
      const answer = await rig.post('refresh', { accessToken: 'x' }, { cookie });
      expect(answer.status).toBe(401);
      expect(answer.body.error.code).toBe('SESSION_INVALID');
      expect(answer.setCookie.map(parseSetCookie).every(({ attributes }) => attributes['max-age'] === '0')).toBe(true);
    }
    expect(upstream.stats.refreshCalls).toBe(0);
  });

  it('is refused at login when it does not fit in 3 cookies: a message, a server log line, and the pair revoked', async () => {
    const { rig, upstream, onError } = await rigWith([fatUser('huge@demo.test', 10_000)]);
    const login = await rig.post('login', { email: 'huge@demo.test', password: 'fat-pass' });
    expect(login.status).toBe(500);
    expect(login.body.error.code).toBe('SESSION_TOO_LARGE');
    expect(login.body.error.message).toMatch(
      /does not fit in the 3 cookies a browser keeps for it \(an access token of \d+ bytes\)/,
    );
    expect(login.setCookie).toEqual([]);
    expect(onError).toHaveBeenCalledWith(expect.objectContaining({ message: login.body.error.message }));
    // The pair the service issued is not left alive for 30 days.
    expect(upstream.stats.logoutCalls).toBe(1);
    expect(rig.jar.header()).toBeUndefined();
  });
});
