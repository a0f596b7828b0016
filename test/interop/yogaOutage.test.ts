import { describe, expect, it } from 'vitest';
import { type AuthRejectedError, isRefusal } from '../../src';
import { useCleanups } from '../helpers/overHttp';
import { startYogaSpec } from './servers/startYogaSpec';
import { ADMIN, advanceUntil, ME, startRig } from './specServer';

const cleanups = useCleanups();

// Yoga sends its refusals without a code and masks every crash as INTERNAL_SERVER_ERROR ("Unexpected error."):
// there, that code is never a refusal.
const yogaRefusal = (error: AuthRejectedError, call: 'login' | 'refresh' | 'logout') =>
  error.code === 'INTERNAL_SERVER_ERROR' ? false : isRefusal(error, call);

describe('a database outage behind GraphQL Yoga 5, over three refreshes', () => {
  it("ends the session with the defaults, which cannot tell Yoga's masked crash from Apollo Server's refusal", async () => {
    const { auth, clock, server } = await startRig(cleanups, startYogaSpec);
    await auth.login(ADMIN.email, ADMIN.password);
    server.service.failRefreshes(3);
    await clock.advanceTo(auth.getState().refreshAt!);
    const took = await advanceUntil(clock, () => auth.getState().status !== 'authenticated', 60_000);
    expect(took).toBeLessThanOrEqual(30_000);
    expect(auth.getState()).toMatchObject({
      status: 'unauthenticated',
      ended: { reason: 'rejected', message: 'Unexpected error.' },
    });
    expect(server.service.stats).toMatchObject({ refreshes: 3, refreshSuccesses: 0 });
  });

  it('keeps the session with an isRefusal that takes INTERNAL_SERVER_ERROR as the server failing', async () => {
    const { auth, clock, client, server, ended } = await startRig(cleanups, startYogaSpec, {
      auth: { isRefusal: yogaRefusal },
    });
    await auth.login(ADMIN.email, ADMIN.password);
    server.service.failRefreshes(4);
    await clock.advanceTo(auth.getState().refreshAt!);
    const statuses = new Set<string>();
    await advanceUntil(
      clock,
      () => (statuses.add(auth.getState().status), server.service.stats.refreshSuccesses === 1),
      5 * 60_000,
    );
    expect([...statuses]).toEqual(['authenticated']);
    expect(server.service.stats).toMatchObject({ refreshes: 5, refreshSuccesses: 1 });
    expect(ended).toEqual([]);
    const { data } = await client.query({ query: ME, fetchPolicy: 'network-only' });
    expect(data).toMatchObject({ me: { id: ADMIN.id } });
    // Its refusals still end the session at once.
    server.service.revokeAll(ADMIN.id);
    await clock.advanceTo(auth.getState().refreshAt!);
    await advanceUntil(clock, () => auth.getState().status !== 'authenticated', 60_000);
    expect(auth.getState()).toMatchObject({
      status: 'unauthenticated',
      ended: { reason: 'rejected', message: 'Invalid refresh token' },
    });
    expect(server.service.stats.refreshes).toBe(6);
  });
});
