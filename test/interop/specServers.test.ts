import { gql } from '@apollo/client';
import { describe, expect, it } from 'vitest';
import { AuthRejectedError, SessionEndedError } from '../../src';
import { useCleanups } from '../helpers/overHttp';
import { startApolloServerSpec } from './servers/startApolloServerSpec';
import { startYogaSpec } from './servers/startYogaSpec';
import { ADMIN, advanceUntil, DOCUMENTS, ME, postGraphQL, type RawAnswer, startRig } from './specServer';

const cleanups = useCleanups();

/** The contract bounds how long a refused session may linger (issue 19): 30 s from the first refused refresh. */
const REJECTED_WITHIN = 30_000;

// What each framework makes of `throw new GraphQLError('…')` (no code) and of a plain `throw new Error('db down')`.
const servers = [
  {
    name: 'Apollo Server 5',
    start: startApolloServerSpec,
    uncoded: 'INTERNAL_SERVER_ERROR',
    crash: { message: 'db down', code: 'INTERNAL_SERVER_ERROR' },
  },
  {
    name: 'GraphQL Yoga 5',
    start: startYogaSpec,
    uncoded: undefined,
    crash: { message: 'Unexpected error.', code: 'INTERNAL_SERVER_ERROR' },
  },
] as const;

describe.each(servers)('against a spec server on $name, over real HTTP', ({ start, uncoded, crash }) => {
  it('sends each refusal under HTTP 200, in its own words, with the code its framework gives', async () => {
    const { server } = await startRig(cleanups, start);
    const refused = (message: string): RawAnswer => ({ status: 200, message, code: uncoded, data: null });
    expect(await postGraphQL(server.url, DOCUMENTS.login, { email: ADMIN.email, password: 'wrong' })).toEqual(
      refused('Invalid email or password'),
    );
    expect(await postGraphQL(server.url, DOCUMENTS.refresh, { token: 'not-a-token' })).toEqual(
      refused('Invalid refresh token'),
    );
    expect(await postGraphQL(server.url, DOCUMENTS.me)).toEqual(refused('Not authenticated'));
    server.service.failRefreshes(1);
    expect(await postGraphQL(server.url, DOCUMENTS.refresh, { token: 'not-a-token' })).toEqual({
      status: 200,
      ...crash,
      data: null,
    });
    const { data } = await postGraphQL(server.url, DOCUMENTS.login, { email: ADMIN.email, password: ADMIN.password });
    server.service.expireAccessTokens();
    const { accessToken } = (data as { loginWithEmailPassword: { accessToken: string } }).loginWithEmailPassword;
    expect(await postGraphQL(server.url, DOCUMENTS.me, {}, accessToken)).toEqual({
      status: 200,
      message: 'Access token expired',
      code: 'TOKEN_EXPIRED',
      data: null,
    });
  });

  it("a wrong password is an AuthRejectedError in the server's words", async () => {
    const { auth } = await startRig(cleanups, start);
    const error = await auth.login(ADMIN.email, 'wrong').then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(AuthRejectedError.is(error) && error.message).toBe('Invalid email or password');
    expect(auth.getState()).toMatchObject({
      status: 'unauthenticated',
      error: { message: 'Invalid email or password' },
    });
  });

  it('an expired access token costs one refresh, and the operation is replayed once with the new token', async () => {
    const { auth, client, server } = await startRig(cleanups, start);
    await auth.login(ADMIN.email, ADMIN.password);
    const before = await auth.getAccessToken();
    server.service.expireAccessTokens();
    const { data } = await client.query({ query: ME, fetchPolicy: 'network-only' });
    expect(data).toEqual({ me: { __typename: 'User', id: ADMIN.id, email: ADMIN.email } });
    expect(server.service.stats).toMatchObject({ refreshes: 1, refreshSuccesses: 1, meQueries: 2 });
    expect(await auth.getAccessToken()).not.toBe(before);
  });

  it(`a session revoked on the server ends as rejected within ${REJECTED_WITHIN / 1000} s of the first refused refresh, and refreshes no more`, async () => {
    const { auth, clock, server, ended } = await startRig(cleanups, start);
    await auth.login(ADMIN.email, ADMIN.password);
    expect(server.service.revokeAll(ADMIN.id)).toBe(1);
    // To the proactive refresh (12.5 minutes on, with the default lead time): the first refused refresh.
    const { refreshAt } = auth.getState();
    await clock.advanceTo(refreshAt!);
    expect(server.service.stats.refreshes).toBe(1);
    const started = performance.now();
    const took = await advanceUntil(clock, () => auth.getState().status !== 'authenticated', 5 * 60_000);
    const real = performance.now() - started;
    console.info(
      `${start.name}: rejected ${took} ms (virtual) after the first refused refresh, ${real.toFixed(0)} ms of real time`,
    );
    expect(auth.getState()).toMatchObject({
      status: 'unauthenticated',
      ended: { reason: 'rejected', message: 'Invalid refresh token' },
    });
    expect(took).toBeLessThanOrEqual(REJECTED_WITHIN);
    expect(ended).toHaveLength(1);
    expect(ended[0]).toMatchObject({
      reason: 'rejected',
      message: 'Invalid refresh token',
      error: { message: 'Invalid refresh token' },
    });
    const refreshes = server.service.stats.refreshes;
    await clock.advance(60 * 60_000);
    expect(server.service.stats.refreshes).toBe(refreshes);
  });

  it('an operation answered TOKEN_EXPIRED in a revoked session fails with SessionEndedError, within 30 s', async () => {
    const { auth, clock, client, server } = await startRig(cleanups, start);
    await auth.login(ADMIN.email, ADMIN.password);
    server.service.revokeAll(ADMIN.id);
    server.service.expireAccessTokens();
    const outcome = client.query({ query: ME, fetchPolicy: 'network-only' }).then(
      () => 'answered',
      (error: unknown) => error,
    );
    let settled: unknown;
    void outcome.then((value) => (settled = value));
    const took = await advanceUntil(clock, () => settled !== undefined, 5 * 60_000);
    expect(took).toBeLessThanOrEqual(REJECTED_WITHIN);
    expect(SessionEndedError.is(settled) && settled.reason).toBe('rejected');
    expect(auth.getState()).toMatchObject({
      status: 'unauthenticated',
      ended: { reason: 'rejected', message: 'Invalid refresh token' },
    });
    // One operation, replayed never: the refusals were the session's refreshes.
    expect(server.service.stats.meQueries).toBe(1);
  });

  it('a session revoked by an admin ends within 5 s of the first operation refused as "Not authenticated", with 15-minute tokens', async () => {
    const { auth, clock, client, server, ended } = await startRig(cleanups, start);
    await auth.login(ADMIN.email, ADMIN.password);
    server.service.revokeAll(ADMIN.id);
    let settled: unknown;
    void client.query({ query: ME, fetchPolicy: 'network-only' }).then(
      () => (settled = 'answered'),
      (error: unknown) => (settled = error),
    );
    const took = await advanceUntil(
      clock,
      () => settled !== undefined && auth.getState().status === 'unauthenticated',
      60_000,
      100,
    );
    expect(took).toBeLessThanOrEqual(5_000);
    expect(SessionEndedError.is(settled) && settled.reason).toBe('rejected');
    expect(ended).toEqual([
      expect.objectContaining({ reason: 'rejected', rejection: 'revoked', message: 'Invalid refresh token' }),
    ]);
    expect(server.service.stats).toMatchObject({ refreshes: 1, meQueries: 1 });
  });

  it('business errors without a code, 5 a second for 10 minutes: the session is never ended, and checked at most 10 times', async () => {
    const { auth, clock, client, server, ended } = await startRig(cleanups, start);
    await auth.login(ADMIN.email, ADMIN.password);
    const CLUB = gql`
      query Club($id: ID!) {
        club(id: $id) {
          id
        }
      }
    `;
    const RENAME = gql`
      mutation Rename {
        renameClub(id: "c1", name: "Lakeside") {
          id
        }
      }
    `;
    const messages = new Set<string>();
    for (let second = 0; second < 600; second++) {
      const operations = Array.from({ length: 5 }, (_, n) =>
        ((n + second) % 2
          ? client.mutate({ mutation: RENAME })
          : client.query({
              query: CLUB,
              variables: { id: 'c2' },
              fetchPolicy: 'network-only',
              context: { queryDeduplication: false },
            })
        ).catch((error: Error) => messages.add(error.message)),
      );
      await Promise.all(operations);
      await clock.advance(1_000);
    }
    expect([...messages].sort()).toEqual(['Club not found', 'Not allowed to edit this club']);
    expect(ended).toEqual([]);
    expect(auth.getState()).toMatchObject({ status: 'authenticated' });
    expect(server.service.stats.refreshes).toBeLessThanOrEqual(10);
  }, 60_000);

  it('logout kills both tokens on the server', async () => {
    const { auth, server, store } = await startRig(cleanups, start);
    await auth.login(ADMIN.email, ADMIN.password);
    const pair = (await store.get())!;
    expect((await postGraphQL(server.url, DOCUMENTS.me, {}, pair.accessToken)).data).toMatchObject({
      me: { id: ADMIN.id },
    });
    await auth.logout();
    expect(server.service.stats.logouts).toBe(1);
    expect(await postGraphQL(server.url, DOCUMENTS.me, {}, pair.accessToken)).toMatchObject({
      message: 'Not authenticated',
      data: null,
    });
    expect(await postGraphQL(server.url, DOCUMENTS.refresh, { token: pair.refreshToken })).toMatchObject({
      message: 'Invalid refresh token',
      data: null,
    });
  });

  it('a refresh that fails twice with a server crash, then succeeds, keeps the session', async () => {
    const { auth, clock, client, server, ended } = await startRig(cleanups, start);
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
    expect(auth.getState().retry).toBeUndefined();
    expect(ended).toEqual([]);
    expect(await auth.getAccessToken()).not.toBe(before);
    const { data } = await client.query({ query: ME, fetchPolicy: 'network-only' });
    expect(data).toMatchObject({ me: { id: ADMIN.id } });
  });
});
