import { describe, expect, it } from 'vitest';
import { useCleanups } from '../helpers/overHttp';
import { startApolloServerSpec } from './servers/startApolloServerSpec';
import { ADMIN, DOCUMENTS, ME, postGraphQL, startRig } from './specServer';

const cleanups = useCleanups();

const startChecking = (options: Parameters<typeof startApolloServerSpec>[0]) =>
  startApolloServerSpec({ ...options, checkTokenIn: 'context' });

describe('against Apollo Server 5 refusing an expired token in its context function (its authentication recipe)', () => {
  it('answers TOKEN_EXPIRED under HTTP 500, for any operation that carries the token', async () => {
    const { server } = await startRig(cleanups, startChecking);
    const { data } = await postGraphQL(server.url, DOCUMENTS.login, { email: ADMIN.email, password: ADMIN.password });
    const { accessToken, refreshToken } = (
      data as { loginWithEmailPassword: { accessToken: string; refreshToken: string } }
    ).loginWithEmailPassword;
    server.service.expireAccessTokens();
    const expired = { status: 500, message: 'Access token expired', code: 'TOKEN_EXPIRED' };
    expect(await postGraphQL(server.url, DOCUMENTS.me, {}, accessToken)).toMatchObject(expired);
    expect(await postGraphQL(server.url, DOCUMENTS.logout, { refreshToken }, accessToken)).toMatchObject(expired);
    expect(await postGraphQL(server.url, DOCUMENTS.logout, { refreshToken })).toMatchObject({
      status: 200,
      data: { logout: { success: true } },
    });
  });

  it('an expired access token costs one refresh, and the operation is replayed once', async () => {
    const { auth, client, server } = await startRig(cleanups, startChecking);
    await auth.login(ADMIN.email, ADMIN.password);
    server.service.expireAccessTokens();
    const { data } = await client.query({ query: ME, fetchPolicy: 'network-only' });
    expect(data).toMatchObject({ me: { id: ADMIN.id } });
    expect(server.service.stats).toMatchObject({ refreshes: 1, refreshSuccesses: 1, meQueries: 1 });
  });

  it('logout kills both tokens on the server, even when the access token has expired', async () => {
    const errors: unknown[] = [];
    const { auth, server, store } = await startRig(cleanups, startChecking, {
      auth: { onError: (error) => errors.push(error) },
    });
    await auth.login(ADMIN.email, ADMIN.password);
    const pair = (await store.get())!;
    server.service.expireAccessTokens();
    await auth.logout();
    expect(errors).toEqual([]);
    expect(await postGraphQL(server.url, DOCUMENTS.refresh, { token: pair.refreshToken })).toMatchObject({
      message: 'Invalid refresh token',
      data: null,
    });
  });
});
