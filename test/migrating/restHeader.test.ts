import { describe, expect, it, vi } from 'vitest';
import { useCleanups } from '../helpers/overHttp';
import { defaultClaims } from '../helpers/restAuthService';
import { REST_USERS, startHeaderServer } from '../helpers/restServers';
import { createRestHeaderClient as createAfter } from './after/restHeader';
import { createRestHeaderClient as createBefore } from './before/restHeader';
import { burst, describeBurst, itHandlesBursts, memoryStorage, passExpiry, restCounts, useTestDate } from './burst';

// Shape (b) of docs/migrating.md, which quotes what these tests print: a REST refresh that takes the refresh token as
// Authorization: Bearer, rotates it, and answers every refusal 200 { ok: false }; access tokens that carry userId and
// roles[] (no sub, no role). The server is restServers.ts's, on 127.0.0.1, with the contract's 15-minute tokens.

const cleanups = useCleanups();
useTestDate();
const ADA = REST_USERS[0]!;

const startServer = () => startHeaderServer(cleanups, { clock: { now: () => Date.now() }, claims: defaultClaims });

async function signedInBefore() {
  const rest = await startServer();
  const storage = memoryStorage();
  const app = createBefore(rest.url, storage);
  await app.login(ADA.email, ADA.password);
  return { rest, storage, ...app };
}

async function signedInAfter() {
  const rest = await startServer();
  const app = createAfter(rest.url);
  cleanups.push(() => app.auth.dispose());
  await app.auth.login(ADA.email, ADA.password);
  return { rest, ...app };
}

async function signedIn(app: 'before' | 'after') {
  const { rest, client } = app === 'before' ? await signedInBefore() : await signedInAfter();
  return { client, counts: restCounts(rest), expireTokens: () => rest.service.expireAccessTokens() };
}

describe('migrating a REST refresh with the refresh token in a header: the user', () => {
  it("reads the user from the access token's userId and roles[]: by hand before, by readUser after", async () => {
    const before = await signedInBefore();
    const after = await signedInAfter();

    expect(before.currentUser()).toEqual({ id: 7, email: ADA.email, roles: ['admin', 'editor'] });
    expect(after.auth.getState().user).toMatchObject({
      id: '7',
      email: ADA.email,
      role: 'admin',
      roles: ['admin', 'editor'],
    });
  });
});

describe('migrating a REST refresh with the refresh token in a header: 10 queries at once', () => {
  itHandlesBursts('REST header', signedIn, 'CombinedGraphQLErrors: jwt expired');
});

describe('migrating a REST refresh with the refresh token in a header: a session revoked on the server', () => {
  it('before: the queries fail with no refresh, and the app goes on holding the pair as if signed in', async () => {
    const { rest, client, storage, currentUser } = await signedInBefore();
    rest.service.revokeAll();

    const outcome = await burst(client, restCounts(rest));
    console.info(describeBurst('before, REST header, session revoked', outcome));

    expect(outcome).toMatchObject({ succeeded: 0, failed: 10, refreshCalls: 0, nextQueryOk: false });
    expect(outcome.errors).toEqual(['CombinedGraphQLErrors: Session revoked']);
    expect(storage.keys()).toEqual(['accessToken', 'refreshToken']);
    expect(currentUser()).toMatchObject({ id: 7 });
  });

  it('before, once the token is past its exp: handleError, and the queued queries go out without a token', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    cleanups.push(() => warn.mockRestore());
    const { rest, client, storage } = await signedInBefore();
    rest.service.revokeAll();
    passExpiry();

    const outcome = await burst(client, restCounts(rest));
    console.info(describeBurst('before, REST header, session revoked, token past its exp', outcome));

    expect(outcome).toMatchObject({ succeeded: 0, failed: 10, refreshCalls: 1, refreshSuccesses: 0 });
    expect(outcome.errors).toEqual(['CombinedGraphQLErrors: Not authenticated']);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(storage.keys()).toEqual([]);
  });

  it.each(['its token alive', 'its token past its exp'])(
    "after (%s): one refresh, refused; the session ends in the server's words, and the queries fail with SessionEndedError",
    async (when) => {
      const { rest, client, auth } = await signedInAfter();
      rest.service.revokeAll();
      if (when === 'its token past its exp') passExpiry();

      const outcome = await burst(client, restCounts(rest));
      console.info(describeBurst(`after, REST header, session revoked, ${when}`, outcome));

      expect(outcome).toMatchObject({ succeeded: 0, failed: 10, refreshCalls: 1, refreshSuccesses: 0 });
      expect(outcome.errors.every((error) => error.startsWith('SessionEndedError'))).toBe(true);
      expect(auth.getState()).toMatchObject({
        status: 'unauthenticated',
        user: null,
        ended: { reason: 'rejected', message: 'Refresh token revoked' },
      });
    },
  );
});
