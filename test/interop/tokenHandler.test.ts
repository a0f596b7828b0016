import { describe, expect, it } from 'vitest';
import { AuthRejectedError, createTokenAuth, createTokenHandlerTransport, type TokenAuthOptions } from '../../src';
import { createTokenHandler } from '../../src/server';
import { createTestClock } from '../../src/testing';
import { useCleanups } from '../helpers/overHttp';
import { createCookieJar, pageFetch, SECRET, serveHandler } from '../helpers/tokenHandler';
import { startApolloServerSpec } from './servers/startApolloServerSpec';
import { startYogaSpec } from './servers/startYogaSpec';
import { ADMIN, advanceUntil, DOCUMENTS, postGraphQL, trackedFetch } from './specServer';

const cleanups = useCleanups();

/** A spec server, `./server`'s token handler in front of it, and a page's session through the handler, on one test clock. */
async function startBehindHandler(start: typeof startApolloServerSpec, options: Partial<TokenAuthOptions> = {}) {
  const clock = createTestClock();
  const server = await start({ now: clock.now });
  cleanups.push(() => server.close());
  const handler = createTokenHandler({ uri: server.url, secret: SECRET, now: clock.now, fetch: trackedFetch(clock) });
  const origin = await serveHandler(cleanups, handler);
  const jar = createCookieJar();
  const ended: unknown[] = [];
  const answers: Array<{ status: number; body: unknown }> = [];
  const auth = createTokenAuth({
    transport: createTokenHandlerTransport(`${origin}/auth`, {
      fetch: pageFetch(jar, origin, trackedFetch(clock), answers),
    }),
    clock,
    refreshOnResume: false,
    onSessionEnd: (event) => ended.push(event),
    ...options,
  });
  cleanups.push(() => auth.dispose());
  await advanceUntil(clock, () => auth.getState().status !== 'loading', 5_000, 10);
  return { clock, server, jar, auth, ended, answers };
}

describe.each([
  { name: 'Apollo Server 5', start: startApolloServerSpec },
  { name: 'GraphQL Yoga 5', start: startYogaSpec },
])("./server's token handler in front of a spec server on $name", ({ start }) => {
  it("a wrong password is an AuthRejectedError in the server's words", async () => {
    const { auth, answers } = await startBehindHandler(start);
    const error = await auth.login(ADMIN.email, 'wrong').then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(AuthRejectedError.is(error) && error.message).toBe('Invalid email or password');
    // The handler's own answer: its documented code, whatever code the upstream's framework put on the refusal.
    expect(answers.at(-1)).toEqual({
      status: 401,
      body: { error: { code: 'INVALID_CREDENTIALS', message: 'Invalid email or password' } },
    });
  });

  it('a session revoked on the server ends as rejected within 30 s, and refreshes no more', async () => {
    const { auth, clock, server, ended } = await startBehindHandler(start);
    await auth.login(ADMIN.email, ADMIN.password);
    server.service.revokeAll(ADMIN.id);
    await clock.advanceTo(auth.getState().refreshAt!);
    expect(server.service.stats.refreshes).toBe(1);
    const took = await advanceUntil(clock, () => auth.getState().status !== 'authenticated', 5 * 60_000);
    console.info(`token handler before ${start.name}: rejected ${took} ms (virtual) after the first refused refresh`);
    expect(auth.getState()).toMatchObject({ status: 'unauthenticated', ended: { reason: 'rejected' } });
    expect(took).toBeLessThanOrEqual(30_000);
    expect(ended).toMatchObject([{ reason: 'rejected' }]);
    const refreshes = server.service.stats.refreshes;
    await clock.advance(60 * 60_000);
    expect(server.service.stats.refreshes).toBe(refreshes);
  });

  it('a refresh that fails twice with a server crash, then succeeds, keeps the session and its cookie', async () => {
    const { auth, clock, server, jar, ended } = await startBehindHandler(start);
    await auth.login(ADMIN.email, ADMIN.password);
    const before = await auth.getAccessToken();
    server.service.failRefreshes(2);
    await clock.advanceTo(auth.getState().refreshAt!);
    const statuses = new Set<string>();
    const took = await advanceUntil(
      clock,
      () => (statuses.add(auth.getState().status), server.service.stats.refreshSuccesses === 1),
      60_000,
      100,
    );
    expect(took).toBeLessThan(60_000);
    expect([...statuses]).toEqual(['authenticated']);
    expect(server.service.stats).toMatchObject({ refreshes: 3, refreshSuccesses: 1 });
    expect(auth.getState()).toMatchObject({ status: 'authenticated', user: { id: ADMIN.id } });
    expect(ended).toEqual([]);
    expect(jar.header()).toBeDefined();
    expect(await auth.getAccessToken()).not.toBe(before);
  });

  it('logout through the handler kills both tokens on the server', async () => {
    const { auth, server, jar } = await startBehindHandler(start);
    await auth.login(ADMIN.email, ADMIN.password);
    const accessToken = (await auth.getAccessToken())!;
    expect(jar.header()).toBeDefined();
    await auth.logout();
    expect(jar.header()).toBeUndefined();
    expect(server.service.stats.logouts).toBe(1);
    expect(await postGraphQL(server.url, DOCUMENTS.me, {}, accessToken)).toMatchObject({
      message: 'Not authenticated',
      data: null,
    });
    // The refresh token never reached the page: that the session is dead upstream shows as its refresh count.
    expect(server.service.stats.refreshSuccesses).toBe(0);
  });
});
